"""Tools built on a compilation, none of which the compile itself needs: op coverage,
bisection against eager, the dispatch profiler, the fusion-plan picture, the op facts
(`mlc-opt --list-ops`), and the `torch.compile` backend.
"""
