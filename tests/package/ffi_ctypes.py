#!/usr/bin/env python3
"""The builder from Python, through ctypes alone: what a binding without a C
compiler does with the library's exported inline functions (lib/cmd/ffi.c).

    ffi_ctypes.py LIB.so

Builds a CQ.CREATE command (a new handle, the CQE count, a user handle, the
completion vector, the CQE answer) with uvio_cmd_init and the puts, asks uvio_cmd_format for it in
words and checks what it says; then makes one put fail (the same id twice)
and checks the sticky error through uvio_cmd_error."""
import ctypes
import sys

UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE = 3, 0
HANDLE, CQE, USER_HANDLE, COMP_VECTOR, RESP_CQE = 0, 1, 2, 4, 6
EEXIST = 17

lib = ctypes.CDLL(sys.argv[1])
p, u16, u32, u64, sz = (ctypes.c_void_p, ctypes.c_uint16, ctypes.c_uint32,
                        ctypes.c_uint64, ctypes.c_size_t)
for name, args, res in (
        ("uvio_cmd_init", [p, p, sz, u16, u16], None),
        ("uvio_cmd_set_driver_id", [p, u32], None),
        ("uvio_put_idr_new", [p, u16], p),
        ("uvio_put_u32", [p, u16, u32], p),
        ("uvio_put_u64", [p, u16, u64], p),
        ("uvio_put_ptr_out", [p, u16, p, sz], p),
        ("uvio_cmd_error", [p], ctypes.c_int),
        ("uvio_cmd_format", [p, ctypes.c_char_p, sz], ctypes.c_int)):
    fn = getattr(lib, name)  # AttributeError: not exported
    fn.argtypes, fn.restype = args, res

# A binding takes sizeof(struct uvio_cmd) from the header; room enough here.
cmd = ctypes.create_string_buffer(8192)
buf = (ctypes.c_uint64 * 64)()          # 8-byte aligned, 24 + 16 * n bytes
resp = ctypes.c_uint32(0)
lib.uvio_cmd_init(cmd, buf, ctypes.sizeof(buf), UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE)
lib.uvio_cmd_set_driver_id(cmd, 14)
lib.uvio_put_idr_new(cmd, HANDLE)
lib.uvio_put_u32(cmd, CQE, 256)
lib.uvio_put_u64(cmd, USER_HANDLE, 0xcafe)
lib.uvio_put_u32(cmd, COMP_VECTOR, 0)
lib.uvio_put_ptr_out(cmd, RESP_CQE, ctypes.byref(resp), 4)
assert lib.uvio_cmd_error(cmd) == 0, lib.uvio_cmd_error(cmd)

text = ctypes.create_string_buffer(4096)
n = lib.uvio_cmd_format(cmd, text, ctypes.sizeof(text))
words = text.value.decode()
print(words)
assert n == len(words), (n, len(words))
for want in ("CQ.CREATE (object 3, method 0)", "driver_id 14", "5 attrs",
             "0x0001 CQE              ptr-in  len 4 mandatory = 256",
             "0x0002 USER_HANDLE      ptr-in  len 8 mandatory = 0xcafe",
             "0x0006 RESP_CQE         ptr-out len 4 mandatory"):
    assert want in words, want
assert "missing" not in words, "a mandatory attribute went missing"

lib.uvio_put_u32(cmd, CQE, 1)           # the same id again: the sticky error
assert lib.uvio_cmd_error(cmd) == -EEXIST, lib.uvio_cmd_error(cmd)
print("ffi_ctypes: CQ.CREATE built and decoded from Python; a second CQE is -EEXIST")
