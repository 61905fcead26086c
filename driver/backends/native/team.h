/* The plugin's own threads: each library call splits its work (blocks of columns, or
 * heads) among the thread that made it and one helper per other CPU the process may run
 * on. Included by mlc_matmul.c.
 *
 * mlc's executables call the plugin from one workgroup per matmul or attention, so the
 * call, not IREE, shares the work: on IREE's local-sync driver the calling thread is
 * the caller's own, and a model whose heavy work is on the library runs without IREE's
 * task system, whose hand-offs between a call's dispatches cost 0.1-0.2 ms a call and,
 * on two cores, stalled about one call in four for ~4 ms (README, Levers).
 *
 * One call at a time has the helpers: a call made while another holds them (two
 * threads calling models at once, or IREE running two dispatches at once) does its
 * parts itself. A helper spins briefly for the next call before it sleeps, since a
 * model's library calls come one after another, and waking a sleeping thread costs
 * tens of microseconds on these machines. After fork(), the child starts helpers of
 * its own. */

#ifndef MLC_TEAM_H_
#define MLC_TEAM_H_

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How long a helper waits awake for the next call before it sleeps: a sleeping helper
 * took as long to wake as the call it was to share (Intel Xeon, 2 virtual CPUs: a
 * 64x512x2048 sgemm called 1 ms apart took 0.81 ms alone, 0.78 with a helper that slept
 * after 50 us, 0.41 with one that waited 1 ms). While it waits it yields its CPU to any
 * thread that wants it (IREE's task workers, the caller's own threads). */
enum { TEAM_MAX_HELPERS = 63, TEAM_SPIN_NS = 1000000 };

typedef void (*team_part_fn)(void* job, size_t part, size_t parts);

typedef struct {
  _Atomic uint32_t go;     /* bumped by the caller for each call this helper may join */
  _Atomic uint32_t asleep; /* set while the helper sleeps on `go`: only then is it woken */
} __attribute__((aligned(64))) team_helper_t;

/* A call's parts are taken one at a time, by whoever comes first: a helper that wakes
 * late takes fewer (or none), so a call never waits long for a helper that the
 * machine is slow to wake (a sleeping virtual CPU took up to ~0.5 ms here). The ticket
 * holds the call's number and its next part: a helper takes a part only by moving the
 * ticket of the call it read the job of, so it never runs a part of another call. */
static struct {
  pthread_mutex_t use;
  _Atomic int started, stop;
  size_t helpers;
  pthread_t threads[TEAM_MAX_HELPERS];
  cpu_set_t cpus; /* the process's, which helpers take once running */
  uint32_t calls; /* the caller's count, under `use` */
  _Atomic(team_part_fn) fn;
  _Atomic(void*) job;
  _Atomic size_t parts;
  _Atomic int from_worker; /* the current call came from one of IREE's task workers */
  _Atomic uint64_t ticket __attribute__((aligned(64))); /* call << 32 | next part */
  _Atomic uint32_t finished __attribute__((aligned(64))); /* parts done in this call */
  _Atomic uint32_t caller_asleep; /* set while the caller sleeps on `finished` */
  team_helper_t helper[TEAM_MAX_HELPERS];
} team = {.use = PTHREAD_MUTEX_INITIALIZER};

static void futex_wait(_Atomic uint32_t* word, uint32_t value) {
  syscall(SYS_futex, (uint32_t*)word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t* word) {
  syscall(SYS_futex, (uint32_t*)word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

/* Wakes the thread that sleeps on `word` after a change to it, if it sleeps (`asleep`):
 * a thread that still waits awake sees the change itself, and the system call cost
 * each call of the plugin about a microsecond twice over (BERT-base int8: 156 calls a
 * forward). The change and the read of `asleep` are sequentially consistent, as are the
 * waiter's setting of `asleep` and its next read of the word (wait_change), so either
 * the waiter sees the change or the waker sees it asleep; futex_wait itself returns at
 * once when the word has already changed. */
static void wake_if_asleep(_Atomic uint32_t* word, _Atomic uint32_t* asleep) {
  if (atomic_load_explicit(asleep, memory_order_seq_cst)) futex_wake(word);
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Waits until *word differs from `value`: awake for `awake_ns` (yielding the CPU to
 * any thread that wants it), then asleep, with `asleep` set (wake_if_asleep). */
static uint32_t wait_change(_Atomic uint32_t* word, uint32_t value, uint64_t awake_ns, _Atomic uint32_t* asleep) {
  uint32_t seen;
  const uint64_t until = now_ns() + awake_ns;
  for (unsigned i = 0; (seen = atomic_load_explicit(word, memory_order_acquire)) == value; ++i) {
    if (i % 16 == 15) {
      if (now_ns() > until) break;
      sched_yield();
    }
    __builtin_ia32_pause();
  }
  if (seen != value) return seen;
  atomic_store_explicit(asleep, 1, memory_order_seq_cst);
  while ((seen = atomic_load_explicit(word, memory_order_seq_cst)) == value) futex_wait(word, value);
  atomic_store_explicit(asleep, 0, memory_order_relaxed);
  return seen;
}

/* One part finished: the last wakes the caller. */
static void team_finished(size_t parts) {
  if (atomic_fetch_add_explicit(&team.finished, 1, memory_order_seq_cst) + 1 == parts)
    wake_if_asleep(&team.finished, &team.caller_asleep);
}

/* Takes and runs parts of the current call until none is left. */
static void team_help(void) {
  uint64_t ticket = atomic_load_explicit(&team.ticket, memory_order_acquire);
  for (;;) {
    const size_t parts = atomic_load_explicit(&team.parts, memory_order_relaxed);
    const team_part_fn fn = atomic_load_explicit(&team.fn, memory_order_relaxed);
    void* job = atomic_load_explicit(&team.job, memory_order_relaxed);
    if ((uint32_t)ticket >= parts) return;
    if (!atomic_compare_exchange_weak_explicit(&team.ticket, &ticket, ticket + 1, memory_order_acq_rel,
                                               memory_order_acquire))
      continue; /* another took it, or a new call began: read again */
    fn(job, (uint32_t)ticket, parts); /* this call's job: its caller waits for the part */
    team_finished(parts);
    ticket = atomic_load_explicit(&team.ticket, memory_order_acquire);
  }
}

static void* team_helper(void* arg) {
  team_helper_t* self = &team.helper[(size_t)(uintptr_t)arg];
  pthread_setaffinity_np(pthread_self(), sizeof team.cpus, &team.cpus);
  uint32_t seen = 0;
  for (;;) {
    /* After a call from one of IREE's task workers the helper sleeps at once: IREE's next
     * dispatch wants its core for the other worker. */
    seen = wait_change(&self->go, seen, atomic_load_explicit(&team.from_worker, memory_order_relaxed) ? 0 : TEAM_SPIN_NS,
                       &self->asleep);
    if (atomic_load(&team.stop)) return NULL;
    team_help();
  }
  return NULL;
}

static void team_forget(void) { /* in a child after fork(): no helpers run there */
  pthread_mutex_init(&team.use, NULL);
  team.helpers = 0;
  atomic_store(&team.started, 0);
  for (size_t i = 0; i < TEAM_MAX_HELPERS; ++i) {
    atomic_store(&team.helper[i].go, 0);
    atomic_store(&team.helper[i].asleep, 0);
  }
  atomic_store(&team.caller_asleep, 0);
}

/* One helper per CPU of the process's affinity mask but the caller's; MLC_PLUGIN_THREADS
 * (threads in all) sets another number. Under `use`. The process's mask is its main
 * thread's, not the caller's: an attention's one workgroup calls from one of IREE's task
 * workers, each pinned to its own core, and started there the team had no helper (a
 * ViT-B/16 layer's attention took 1.7 ms on local-task, 0.85 on local-sync; AMD EPYC). */
static void team_start(void) {
  CPU_ZERO(&team.cpus);
  long threads = sched_getaffinity(getpid(), sizeof team.cpus, &team.cpus) == 0 ? CPU_COUNT(&team.cpus)
                                                                                : sysconf(_SC_NPROCESSORS_ONLN);
  const char* set = getenv("MLC_PLUGIN_THREADS");
  if (set && atol(set) > 0) threads = atol(set);
  size_t wanted = threads > 1 ? (size_t)threads - 1 : 0;
  if (wanted > TEAM_MAX_HELPERS) wanted = TEAM_MAX_HELPERS;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, 1 << 20);
  /* Started away from the caller's CPU: a new thread starts on its creator's, and one
   * that never sleeps stayed there, sharing it with the caller, until the scheduler
   * moved it (tens of ms: a matmul timed in its first 45 calls took as long as on one
   * thread). Once running, it may go anywhere the process may. */
  cpu_set_t elsewhere = team.cpus;
  const int here = sched_getcpu();
  if (here >= 0) CPU_CLR(here, &elsewhere);
  if (CPU_COUNT(&elsewhere) > 0) pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere);
  for (size_t i = 0; i < wanted; ++i) {
    if (pthread_create(&team.threads[i], &attributes, team_helper, (void*)(uintptr_t)i) != 0) break;
    team.helpers = i + 1;
  }
  pthread_attr_destroy(&attributes);
  static int registered = 0;
  if (!registered) registered = pthread_atfork(NULL, NULL, team_forget) == 0;
}

/* Ends the helpers, before IREE unloads the plugin: a helper left running would run
 * code that is no longer mapped. */
static void team_stop(void) {
  pthread_mutex_lock(&team.use);
  atomic_store(&team.stop, 1);
  for (size_t i = 0; i < team.helpers; ++i) {
    atomic_fetch_add(&team.helper[i].go, 1);
    futex_wake(&team.helper[i].go);
  }
  for (size_t i = 0; i < team.helpers; ++i) pthread_join(team.threads[i], NULL);
  team.helpers = 0;
  atomic_store(&team.stop, 0);
  atomic_store(&team.started, 0);
  pthread_mutex_unlock(&team.use);
}

/* The threads a call may split among: the caller and the helpers. */
static size_t team_threads(void) {
  if (!atomic_load_explicit(&team.started, memory_order_acquire)) {
    pthread_mutex_lock(&team.use);
    if (!atomic_load(&team.started)) {
      team_start();
      atomic_store_explicit(&team.started, 1, memory_order_release);
    }
    pthread_mutex_unlock(&team.use);
  }
  return team.helpers + 1;
}

/* Whether the calling thread is one of IREE's task workers (local-task), by the name IREE
 * gives them: there the executable's workgroups share the work among the workers, and a
 * call that took helpers besides would put three threads on two cores. */
static int on_iree_worker(void) {
  static __thread int known = 0, worker = 0;
  if (!known) {
    char name[16] = {0};
    worker = pthread_getname_np(pthread_self(), name, sizeof name) == 0 && strncmp(name, "iree-worker", 11) == 0;
    known = 1;
  }
  return worker;
}

/* Runs fn(job, part, parts) for each part in [0, parts), on the calling thread and the
 * helpers (all on the calling thread while another call has the helpers). */
static void team_run(team_part_fn fn, void* job, size_t parts) {
  if (parts > 1 && team_threads() > 1 && pthread_mutex_trylock(&team.use) == 0) {
    const uint64_t call = (uint64_t)++team.calls << 32;
    /* First no part to take, so that no helper still reading the last call's ticket
     * moves it while this call's job is written. */
    atomic_store_explicit(&team.ticket, call | UINT32_MAX, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_store_explicit(&team.fn, fn, memory_order_relaxed);
    atomic_store_explicit(&team.job, job, memory_order_relaxed);
    atomic_store_explicit(&team.parts, parts, memory_order_relaxed);
    atomic_store_explicit(&team.from_worker, on_iree_worker(), memory_order_relaxed);
    atomic_store_explicit(&team.finished, 0, memory_order_relaxed);
    atomic_store_explicit(&team.ticket, call, memory_order_release);
    const size_t wake = parts - 1 < team.helpers ? parts - 1 : team.helpers;
    for (size_t i = 0; i < wake; ++i) {
      atomic_fetch_add_explicit(&team.helper[i].go, 1, memory_order_seq_cst);
      wake_if_asleep(&team.helper[i].go, &team.helper[i].asleep);
    }
    for (uint64_t ticket; (uint32_t)(ticket = atomic_fetch_add_explicit(&team.ticket, 1, memory_order_acq_rel)) < parts;) {
      fn(job, (uint32_t)ticket, parts);
      team_finished(parts);
    }
    uint32_t finished;
    while ((finished = atomic_load_explicit(&team.finished, memory_order_acquire)) != parts)
      wait_change(&team.finished, finished, 1000000, &team.caller_asleep);
    pthread_mutex_unlock(&team.use);
    return;
  }
  for (size_t part = 0; part < parts; ++part) fn(job, part, parts);
}

#endif  /* MLC_TEAM_H_ */
