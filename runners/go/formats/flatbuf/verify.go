package flatbuf

import (
	"encoding/binary"
	"fmt"
)

// Go's FlatBuffers library has no verifier: its accessors index the buffer
// blindly and panic on a bad offset. This checks what the accessors of a
// table of scalars and strings will touch, so a corrupt buffer is an error.
// A table's field is a vtable slot: its size (0 = string) and whether the
// schema marks it (required).

type field struct {
	size     int // scalar bytes; 0 for a string
	required bool
}

// verifyTable checks the table at pos in buf and returns its position.
func verifyTable(buf []byte, pos int, fields []field) error {
	le := binary.LittleEndian
	if pos < 0 || pos+4 > len(buf) {
		return fmt.Errorf("flatbuffers: table at %d outside a %d-byte buffer", pos, len(buf))
	}
	vt := pos - int(int32(le.Uint32(buf[pos:])))
	if vt < 0 || vt+4 > len(buf) {
		return fmt.Errorf("flatbuffers: vtable at %d outside the buffer", vt)
	}
	vtLen, tableLen := int(le.Uint16(buf[vt:])), int(le.Uint16(buf[vt+2:]))
	if vtLen < 4 || vtLen%2 != 0 || vt+vtLen > len(buf) || tableLen < 4 || pos+tableLen > len(buf) {
		return fmt.Errorf("flatbuffers: vtable at %d (%d bytes, table %d bytes) does not fit the buffer", vt, vtLen, tableLen)
	}
	for i, f := range fields {
		slot := 4 + 2*i
		off := 0
		if slot < vtLen {
			off = int(le.Uint16(buf[vt+slot:]))
		}
		if off == 0 {
			if f.required {
				return fmt.Errorf("flatbuffers: required field %d missing", i)
			}
			continue
		}
		size := f.size
		if size == 0 {
			size = 4
		}
		if off+size > tableLen {
			return fmt.Errorf("flatbuffers: field %d at %d overruns its %d-byte table", i, off, tableLen)
		}
		if f.size == 0 {
			at := pos + off
			str := at + int(le.Uint32(buf[at:]))
			if str+4 > len(buf) || str < at {
				return fmt.Errorf("flatbuffers: string of field %d at %d outside the buffer", i, str)
			}
			n := int(le.Uint32(buf[str:]))
			if n < 0 || str+4+n >= len(buf) || buf[str+4+n] != 0 {
				return fmt.Errorf("flatbuffers: string of field %d (%d bytes at %d) overruns the buffer or lacks its terminator", i, n, str)
			}
		}
	}
	return nil
}

// root checks the size prefix and root offset of the size-prefixed buffer at
// the start of stream and returns the buffer (prefix excluded), the root
// table's position, and the bytes used.
func root(stream []byte) (buf []byte, pos int, used int, err error) {
	if len(stream) < 8 {
		return nil, 0, 0, fmt.Errorf("flatbuffers: %d bytes cannot hold a size-prefixed buffer", len(stream))
	}
	n := int(binary.LittleEndian.Uint32(stream))
	if n < 4 || n > len(stream)-4 {
		return nil, 0, 0, fmt.Errorf("flatbuffers: size prefix %d, %d bytes left", n, len(stream)-4)
	}
	buf = stream[4 : 4+n]
	return buf, int(binary.LittleEndian.Uint32(buf)), 4 + n, nil
}
