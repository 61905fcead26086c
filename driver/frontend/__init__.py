"""The way in: a PyTorch model (or a .pt2, or an .mlir file) to the torch dialect.

`torch.export` with mlc's decompositions, torch-mlir's FX importer, dynamic sizes from
the user's flags, models loaded from files, and `.mlir` input read and split.
"""
