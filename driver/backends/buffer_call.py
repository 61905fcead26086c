"""`main` called on IREE's buffer views as they are: the path of calls that keep results
in IREE's memory (`Compiled.run_resident`, a generator's decode steps).

iree.runtime's `FunctionInvoker` packs each argument and wraps each result in a
`DeviceArray`; mlc then checked and wrapped each kept one again. A decode step takes and
returns 24 caches (GPT-2), and that Python cost 0.7-0.9 ms of a 6.5 ms step (AMD EPYC,
GPT-2 int8, alternated in one process). Here a numpy input is copied into a buffer, a
kept result's buffer view goes back in as it is, and only the results read on the host
become arrays.
"""

import iree.runtime
import numpy as np


class BufferCall:
    """One function of a loaded module, called on numpy arrays and buffer views."""

    def __init__(self, context: "iree.runtime.SystemContext", function: "iree.runtime.VmFunction", upload):
        self._invoke = context.vm_context.invoke
        self._function = function
        self.upload = upload  # numpy array -> a buffer view of a copy in the device's memory
        self.device = context.config.device
        self._dtypes = {}  # IREE's element type -> numpy dtype, looked up once each

    def __call__(self, arrays, keep) -> list:
        """The results: at the indices in `keep`, (buffer view, numpy dtype) pairs left in
        IREE's memory; the others `DeviceArray`s, or numbers where `main` returns them (a
        model's `x.shape[0]`). `arrays` are numpy arrays or the buffer views of earlier
        results, which IREE may write its results into."""
        arguments = iree.runtime.VmVariantList(len(arrays))
        for array in arrays:
            arguments.push_ref(array if isinstance(array, iree.runtime.HalBufferView) else self.upload(array))
        results = iree.runtime.VmVariantList(len(keep) + 1)
        self.invoke(arguments, results)
        return [self.kept(results.get_as_object(index, iree.runtime.HalBufferView)) if index in keep
                else self._result(results.get_variant(index)) for index in range(len(results))]

    def invoke(self, arguments: "iree.runtime.VmVariantList", results: "iree.runtime.VmVariantList") -> None:
        self._invoke(self._function, arguments, results)

    def kept(self, view) -> tuple:
        """A buffer view and its numpy dtype."""
        element_type = view.element_type
        dtype = self._dtypes.get(element_type)
        if dtype is None:
            dtype = self._dtypes[element_type] = np.dtype(iree.runtime.HalElementType.map_to_dtype(element_type))
        return view, dtype

    def _result(self, value):
        if not isinstance(value, iree.runtime.VmRef):
            return value
        return iree.runtime.DeviceArray(self.device, value.deref(iree.runtime.HalBufferView), implicit_host_transfer=True)
