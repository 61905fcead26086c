"""Fusion planning on a dataflow DAG: TVM's dominator-tree algorithm.

Nodes are ops in program order (a topological order); `successors[n]` are the
nodes consuming n's result, with SINK standing for uses outside the graph (the
function's return). A node fuses into its immediate post-dominator when every
op on every path between them allows it (`_can_fuse`). All consumers of a fused
node are then inside its group, so each group has exactly one output: values
with consumers outside a group are its materialization points.
"""

import dataclasses

from ...dialects.facts import FusionKind as OpKind

SINK = -1


@dataclasses.dataclass
class Graph:
    kinds: list[OpKind]
    successors: list[list[int]]  # SINK (-1) for uses outside the graph
    shapes: list[tuple] | None = None  # result shapes; None: all alike
    takes_part: list[bool] | None = None  # injective ops whose result is part of their input (slices)
    elementwise_only: list[bool] | None = None  # conv/matmul-like ops that take no broadcast consumer
    no_producers: list[bool] | None = None  # ops whose group takes none of their producers


def post_dominators(graph: Graph) -> list[int]:
    """The immediate post-dominator of each node (SINK when it is the function exit)."""
    count = len(graph.kinds)
    parent, depth = [SINK] * count, [0] * count

    def depth_of(node):
        return 0 if node == SINK else depth[node]

    def meet(a, b):
        while a != b:
            if depth_of(a) < depth_of(b):
                a, b = b, a
            a = parent[a]
        return a

    for node in reversed(range(count)):
        successors = graph.successors[node] or [SINK]
        dominator = successors[0]
        for successor in successors[1:]:
            dominator = meet(dominator, successor)
        parent[node], depth[node] = dominator, depth_of(dominator) + 1
    return parent


def _paths_between(graph: Graph, source: int, sink: int) -> list[int]:
    """The nodes strictly between source and sink on paths from source to sink."""
    between, stack, seen = [], list(graph.successors[source]), set()
    while stack:
        node = stack.pop()
        if node in seen or node == sink or node == SINK:
            continue
        seen.add(node)
        between.append(node)
        stack += graph.successors[node]
    return between


class _Groups:
    """Union-find over nodes; each group remembers its largest kind."""

    def __init__(self, kinds):
        self.parent = list(range(len(kinds)))
        self.kind = list(kinds)

    def find(self, node):
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]
            node = self.parent[node]
        return node

    def merge(self, node, into):
        a, b = self.find(node), self.find(into)
        if a != b:
            self.parent[a] = b
            self.kind[b] = max(self.kind[a], self.kind[b])


def _can_fuse(groups: _Groups, graph: Graph, node: int, dominator: int, phase: int) -> bool:
    """TVM's rules: what may lie between `node` and the `dominator` it joins."""
    kind_of = lambda n: groups.kind[groups.find(n)]  # noqa: E731
    between = _paths_between(graph, node, dominator)
    inner = [kind_of(n) for n in between]
    if graph.takes_part and any(graph.takes_part[n] for n in between + [dominator]):
        # A group whose output is a part of what it computes has no op IREE can tile
        # it by (IREE 3.13: "write affecting operations on global resources are
        # restricted to workgroup distributed contexts"); IREE's own dispatch
        # formation leaves such slices out of their producer's dispatch too.
        return False
    if graph.no_producers and any(graph.no_producers[n] for n in between + [dominator]):
        # a matmul whose operand IREE's data tiling packs in its dispatch (mlc-fuse's option)
        return False
    target = kind_of(dominator)
    kind = kind_of(node)
    if kind == OpKind.OUT_ELEMENTWISE_FUSABLE:
        # conv/matmul absorb a chain of elementwise and broadcast consumers over
        # their own iteration space: a consumer that stretches the result (a
        # squeeze-excite scale) would make IREE recompute the conv per element.
        same_space = graph.shapes is None or all(
            graph.shapes[n] == graph.shapes[node] for n in between + [dominator])
        # A grouped convolution (graph.elementwise_only) takes no broadcast consumer: IREE
        # 3.13 cannot tile such a dispatch ("write affecting operations on global
        # resources are restricted to workgroup distributed contexts").
        widest = OpKind.ELEMENTWISE if graph.elementwise_only and graph.elementwise_only[node] else OpKind.BROADCAST
        return phase == 0 and max(inner + [target]) <= widest and same_space
    if kind <= OpKind.BROADCAST:
        # into any fusable consumer, through injective ops only
        return target != OpKind.OPAQUE and all(k <= OpKind.INJECTIVE for k in inner)
    if kind == OpKind.INJECTIVE:
        # deferred to phase 1, so conv/matmul groups form first
        return phase == 1 and max(inner + [target]) <= OpKind.INJECTIVE
    return False  # reductions and opaque ops end a group


def plan(graph: Graph) -> list[int]:
    """A group id for each node: nodes sharing an id run as one kernel."""
    dominators = post_dominators(graph)
    groups = _Groups(graph.kinds)
    for phase in (0, 1):
        for node in range(len(graph.kinds)):
            dominator = dominators[node]
            if dominator == SINK or groups.find(node) == groups.find(dominator):
                continue
            if _can_fuse(groups, graph, node, dominator, phase):
                for member in _paths_between(graph, node, dominator) + [node]:
                    groups.merge(member, dominator)
    return [groups.find(node) for node in range(len(graph.kinds))]
