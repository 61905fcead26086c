"""A picture of the fusion plan: `mlc-compile ... --graph plan.html`, `compiled.graph()`.

The mlc graph after the graph passes, laid out by Graphviz's `dot` (the Debian package
graphviz) as SVG, in one self-contained HTML page (no network): each fusion group a box
around its ops, numbered as the report and the profile number them ("fusion group 3");
each op's kind, shape and source line on hover. Constants are left out: they are the
weights, not the plan.
"""

import dataclasses
import html
import shutil
import subprocess

from torch_mlir import ir
from torch_mlir.dialects import func

from ...dialects.data_ops import ConstantOp
from ...dialects.fusion_ops import FusionGroupOp, YieldOp
from ...dialects.locations import source_line
from ...dialects.op_base import MlcOp
from ...errors import UserError


@dataclasses.dataclass(frozen=True)
class Node:
    label: str  # the op's kind, e.g. "matmul"; "input 0", "output"
    shape: str
    line: str
    group: int | None


@dataclasses.dataclass
class PlanGraph:
    """The ops of `main` (fusion groups opened), and which feeds which."""

    nodes: list[Node] = dataclasses.field(default_factory=list)
    edges: list[tuple[int, int]] = dataclasses.field(default_factory=list)

    @classmethod
    def of(cls, module: ir.Operation) -> "PlanGraph":
        graph, producer = cls(), {}
        function = next(op for op in module.regions[0].blocks[0].operations if isinstance(op.opview, func.FuncOp))
        block = function.regions[0].blocks[0]
        for i, argument in enumerate(block.arguments):
            producer[argument] = graph._add(Node(f"input {i}", _shape(argument.type), "", None), [], producer)
        groups = 0
        for op in block.operations:
            view = op.opview
            if isinstance(view, FusionGroupOp):
                for inner in list(view.body.blocks[0].operations):
                    if isinstance(inner.opview, YieldOp):
                        producer[op.results[0]] = producer.get(inner.operands[0])
                    elif not isinstance(inner.opview, ConstantOp):
                        graph._add_op(inner, groups, producer)
                groups += 1
            elif isinstance(view, MlcOp) and not isinstance(view, ConstantOp):
                graph._add_op(op, None, producer)
            elif isinstance(view, func.ReturnOp):
                for value in op.operands:
                    graph._add(Node("output", _shape(value.type), "", None), [value], producer)
        return graph

    def _add_op(self, op, group, producer) -> None:
        node = Node(op.name.removeprefix("mlc."), _shape(op.results[0].type) if len(op.results) else "",
                    source_line(op.location), group)
        index = self._add(node, list(op.operands), producer)
        for result in op.results:
            producer[result] = index

    def _add(self, node: Node, operands, producer) -> int:
        self.nodes.append(node)
        index = len(self.nodes) - 1
        self.edges += [(producer[v], index) for v in operands if producer.get(v) is not None]
        return index

    @property
    def groups(self) -> int:
        return len({n.group for n in self.nodes if n.group is not None})

    def dot(self) -> str:
        """The graph in Graphviz's language: one cluster per fusion group."""
        lines = ["digraph plan {", "  graph [fontname=Helvetica];", '  node [shape=box, style="rounded,filled", fillcolor=white, fontname=Helvetica];']
        by_group: dict[int | None, list[int]] = {}
        for i, node in enumerate(self.nodes):
            by_group.setdefault(node.group, []).append(i)
        for group, members in by_group.items():
            indent = "  " if group is None else "    "
            if group is not None:
                lines += [f"  subgraph cluster_{group} {{", f'    label="fusion group {group}"; id="group-{group}";',
                          '    class="fusion-group"; style="rounded,filled"; fillcolor="#eef4ff";']
            lines += [f"{indent}n{i} {_attributes(self.nodes[i])};" for i in members]
            if group is not None:
                lines.append("  }")
        lines += [f"  n{a} -> n{b};" for a, b in self.edges]
        return "\n".join(lines + ["}"]) + "\n"

    def html(self, title: str = "mlc fusion plan") -> str:
        """A self-contained page: the SVG dot lays out, a heading, and the group count."""
        svg = _layout(self.dot())
        return _PAGE.format(title=html.escape(title), groups=self.groups, ops=sum(n.group is not None
                            or not n.label.startswith(("input", "output")) for n in self.nodes), svg=svg)


def _shape(type_: ir.Type) -> str:
    return str(type_).removeprefix("tensor<").removesuffix(">") if isinstance(type_, ir.RankedTensorType) else str(type_)


def _attributes(node: Node) -> str:
    tooltip = "\n".join(part for part in (node.label, node.shape, node.line) if part)
    shape = ', shape=ellipse, fillcolor="#f3f3f3"' if node.label.startswith(("input", "output")) else ""
    return f'[label="{_quoted(node.label)}", tooltip="{_quoted(tooltip)}"{shape}]'


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _layout(dot_source: str) -> str:
    dot = shutil.which("dot")
    if dot is None:
        raise UserError("drawing the fusion plan needs Graphviz's dot (the Debian package graphviz)")
    result = subprocess.run([dot, "-Tsvg"], input=dot_source, capture_output=True, text=True)
    if result.returncode != 0:
        raise UserError(f"Graphviz's dot failed on the fusion plan: {result.stderr.strip()}")
    return result.stdout[result.stdout.index("<svg"):]


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ font-family: Helvetica, Arial, sans-serif; margin: 1.5em; }}
  .fusion-group:hover > path, .fusion-group:hover > polygon {{ stroke: #1f5fbf; stroke-width: 3; }}
  h1 {{ font-size: 1.3em; overflow-wrap: anywhere; }}
  svg {{ max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p>{groups} fusion groups (numbered as in the compile report and the profile), {ops} ops.
Hover over an op for its kind, shape and source line.</p>
{svg}
<script>
  // A group's box names the group on hover (Graphviz titles it by its cluster name).
  for (const group of document.querySelectorAll("g.fusion-group")) {{
    group.querySelector("title").textContent = group.id.replace("group-", "fusion group ");
  }}
</script>
</body>
</html>
"""
