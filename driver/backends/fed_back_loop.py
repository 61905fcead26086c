"""`FedBackLoop`: one function called again and again, the state it returns fed back
into its next call (a generator's decode steps, `Compiled.fed_back_loop`).

A `BufferCall` builds IREE's argument list at every call (26 values in Llama's decode
step), uploads the token and the position, and takes every result out of IREE's result
list. Cold in the cache after the step's weights, that Python cost 0.17 ms of Llama's
3.4 ms int8 step (AMD EPYC Zen 4, alternated in one process). Where IREE writes each
state result into the buffer of the argument it replaces (a cache updated in place),
every call's argument list is the same: it is built once, the other inputs are written
into buffers mapped once, and only the results read are taken out.

The first call checks that IREE does so. Where it does not (a result in a buffer of its
own), each call builds the list again with fresh uploads, as a `BufferCall` does.
"""

import iree.runtime
import numpy as np

from .buffer_call import BufferCall

# Buffers the host writes before each call and IREE reads: mapped once, for good.
_MAPPED_MEMORY = iree.runtime.MemoryType.DEVICE_LOCAL | iree.runtime.MemoryType.HOST_VISIBLE
_MAPPED_USAGE = iree.runtime.BufferUsage.DEFAULT | iree.runtime.BufferUsage.MAPPING_PERSISTENT


class FedBackLoop:
    """Calls of one function on `arrays` (numpy arrays, and buffer views of results kept
    in IREE's memory), where the result at index r becomes the argument at index
    `fed_back[r]` of the next call. Each call takes new values for the other arguments and
    returns the results at the indices `read`, as numpy arrays; the rest stay in IREE's
    memory, unread (a decode step's logits)."""

    def __init__(self, call: BufferCall, arrays: list, fed_back: dict[int, int], read: list[int]):
        self._call = call
        self._fed_back = fed_back
        self._read = read
        self._written = [i for i in range(len(arrays)) if i not in fed_back.values()]
        self._values = [array if isinstance(array, iree.runtime.HalBufferView) else self._mapped(array)
                        for array in arrays]
        self._mappings = {i: self._values[i].map() for i in self._written}  # each array's memory lives as long
        self._hosts = {i: self._host(i) for i in self._written}
        self._arguments = self._argument_list(self._values)
        self._result_count = max([*fed_back, *read]) + 1
        self.in_place = None  # whether IREE writes the state into the arguments' buffers: known after one call

    def __call__(self, arrays: list) -> list:
        """The results at the indices `read` of one call on `arrays`, the values of the
        arguments not fed back, in order."""
        if len(arrays) != len(self._written):
            raise ValueError(f"a fed-back loop call takes {len(self._written)} arrays, got {len(arrays)}")
        if self.in_place is False:
            arguments = self._fresh_arguments(arrays)
        else:
            arguments = self._arguments
            for index, array in zip(self._written, arrays):
                self._hosts[index][...] = array
        results = iree.runtime.VmVariantList(self._result_count)
        self._call.invoke(arguments, results)
        read = [self._result(results, index) for index in self._read]
        self._feed_back(results)
        return read

    def state(self) -> list[tuple]:
        """The fed-back arguments as the last call left them: (buffer view, numpy dtype) pairs,
        in argument order."""
        return [self._call.kept(self._values[index]) for index in sorted(self._fed_back.values())]

    def _feed_back(self, results) -> None:
        """The state results become the next call's arguments. After the first call, the
        argument list stays as it is if each state result is its argument's buffer."""
        if self.in_place:
            return
        views = {index: results.get_as_object(result, iree.runtime.HalBufferView)
                 for result, index in self._fed_back.items()}
        if self.in_place is None:
            self.in_place = all(view.get_buffer() == self._values[index].get_buffer() for index, view in views.items())
        if not self.in_place:
            for index, view in views.items():
                self._values[index] = view

    def _fresh_arguments(self, arrays: list):
        for index, array in zip(self._written, arrays):
            self._values[index] = self._call.upload(array)
        return self._argument_list(self._values)

    def _result(self, results, index: int):
        value = results.get_variant(index)
        if not isinstance(value, iree.runtime.VmRef):
            return value
        view, dtype = self._call.kept(value.deref(iree.runtime.HalBufferView))
        return np.array(view.map().asarray(view.shape, dtype))  # a copy: the next call may write this buffer

    @staticmethod
    def _argument_list(values: list):
        arguments = iree.runtime.VmVariantList(len(values))
        for value in values:
            arguments.push_ref(value)
        return arguments

    def _mapped(self, array: np.ndarray):
        device = self._call.device
        return device.allocator.allocate_buffer_copy(
            memory_type=_MAPPED_MEMORY, allowed_usage=_MAPPED_USAGE, device=device, buffer=array,
            element_type=iree.runtime.array_interop.map_dtype_to_element_type(array.dtype))

    def _host(self, index: int) -> np.ndarray:
        view, dtype = self._call.kept(self._values[index])
        return self._mappings[index].asarray(view.shape, dtype)
