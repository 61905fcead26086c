/* Where packed weights live: carved from chunks of 2 MiB pages (transparent huge pages,
 * asked for with madvise), never freed, as packed blocks live as long as the process.
 * Included by mlc_matmul.c.
 *
 * A decode step streams every weight once, and each 4 KiB page of it took a TLB miss
 * (a two-level walk in a virtual machine), and the hardware prefetcher stops at each
 * page's end. Llama's 85 int8 matvecs (100 MB, the plugin's two threads, alternated in
 * one process, AMD EPYC): 24.0-25.5 GB/s on 4 KiB pages, 26.3-28.2 on 2 MiB pages; bf16
 * (200 MB) 28.4-30.0 and 31.4-32.7. The walk also evicted the caller's own pages from
 * the TLB: the Python between two decode steps ran slower after each.
 *
 * Where Linux gives no huge pages (transparent_hugepage "never"), the chunks are
 * ordinary memory. A chunk's unused end is never touched, so it costs address space,
 * not memory. */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "round_up.h"

enum { HUGE_PAGE_BYTES = 2u << 20, PACKED_CHUNK_BYTES = 64u << 20, PACKED_ALIGNMENT = 64 };

static struct {
  pthread_mutex_t lock;
  uint8_t* next; /* the current chunk's first free byte */
  size_t left;   /* its free bytes */
} packed_memory = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* `bytes` of memory aligned to 64 bytes, for a packed block; NULL when out of memory. */
static void* packed_alloc(size_t bytes) {
  bytes = round_up(bytes ? bytes : 1, PACKED_ALIGNMENT);
  pthread_mutex_lock(&packed_memory.lock);
  if (bytes > packed_memory.left) {
    const size_t chunk = round_up(bytes > PACKED_CHUNK_BYTES ? bytes : PACKED_CHUNK_BYTES, HUGE_PAGE_BYTES);
    void* memory = NULL;
    if (posix_memalign(&memory, HUGE_PAGE_BYTES, chunk) != 0) {
      pthread_mutex_unlock(&packed_memory.lock);
      return NULL;
    }
    madvise(memory, chunk, MADV_HUGEPAGE); /* a hint: without it the chunk has 4 KiB pages */
    packed_memory.next = (uint8_t*)memory;
    packed_memory.left = chunk;
  }
  void* block = packed_memory.next;
  packed_memory.next += bytes;
  packed_memory.left -= bytes;
  pthread_mutex_unlock(&packed_memory.lock);
  return block;
}

/* Gives back a block that was not kept (another thread kept the same one meanwhile):
 * its memory is reused only when it is the last one carved. */
static void packed_unalloc(void* block, size_t bytes) {
  bytes = round_up(bytes ? bytes : 1, PACKED_ALIGNMENT);
  pthread_mutex_lock(&packed_memory.lock);
  if ((uint8_t*)block + bytes == packed_memory.next) {
    packed_memory.next = (uint8_t*)block;
    packed_memory.left += bytes;
  }
  pthread_mutex_unlock(&packed_memory.lock);
}
