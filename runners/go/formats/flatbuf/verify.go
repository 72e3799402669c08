package flatbuf

import (
	"encoding/binary"
	"fmt"
)

// Go's FlatBuffers library has no verifier: its accessors index the buffer
// blindly and panic on a bad offset. verifyTable checks everything the
// codecs' accessors will touch, so a corrupt buffer is an error instead. It
// covers the shapes the schemas use: scalars and structs inline, strings,
// tables, vectors of tables, and unions of tables.

type kind uint8

const (
	inline     kind = iota // a scalar or struct of size bytes
	str                    // a string
	table                  // a table with fields fields
	tables                 // a vector of tables with fields fields
	unionType              // a union's type byte
	unionValue             // a union's table; its fields by type in union
	scalars                // a vector of scalars of size bytes
	strs                   // a vector of strings
)

type field struct {
	kind     kind
	size     int
	required bool
	fields   []field
	union    map[uint8][]field
}

var le = binary.LittleEndian

func verifyTable(buf []byte, pos int, fields []field) error {
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
	var utype uint8
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
		size := 4 // every offset field
		if f.kind == inline {
			size = f.size
		} else if f.kind == unionType {
			size = 1
		}
		if off+size > tableLen {
			return fmt.Errorf("flatbuffers: field %d at %d overruns its %d-byte table", i, off, tableLen)
		}
		at := pos + off
		target := at + int(le.Uint32(buf[at:]))
		var err error
		switch f.kind {
		case unionType:
			utype = buf[at]
		case str:
			err = verifyString(buf, at, target)
		case table:
			err = verifyTable(buf, target, f.fields)
		case tables:
			err = verifyTables(buf, at, target, f.fields)
		case scalars:
			err = verifyVector(buf, at, target, f.size)
		case strs:
			if err = verifyVector(buf, at, target, 4); err == nil {
				for i := range int(le.Uint32(buf[target:])) {
					e := target + 4 + 4*i
					if err = verifyString(buf, e, e+int(le.Uint32(buf[e:]))); err != nil {
						break
					}
				}
			}
		case unionValue:
			inner, ok := f.union[utype]
			if !ok {
				return fmt.Errorf("flatbuffers: union type %d unknown", utype)
			}
			err = verifyTable(buf, target, inner)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func verifyString(buf []byte, at, s int) error {
	if s < at || s+4 > len(buf) {
		return fmt.Errorf("flatbuffers: string at %d outside the buffer", s)
	}
	n := int(le.Uint32(buf[s:]))
	if s+4+n >= len(buf) || buf[s+4+n] != 0 {
		return fmt.Errorf("flatbuffers: string of %d bytes at %d overruns the buffer or lacks its terminator", n, s)
	}
	return nil
}

func verifyVector(buf []byte, at, v, size int) error {
	if v < at || v+4 > len(buf) {
		return fmt.Errorf("flatbuffers: vector at %d outside the buffer", v)
	}
	if n := int(le.Uint32(buf[v:])); n > (len(buf)-v-4)/size {
		return fmt.Errorf("flatbuffers: vector of %d %d-byte elements at %d overruns the buffer", n, size, v)
	}
	return nil
}

func verifyTables(buf []byte, at, v int, fields []field) error {
	if v < at || v+4 > len(buf) {
		return fmt.Errorf("flatbuffers: vector at %d outside the buffer", v)
	}
	n := int(le.Uint32(buf[v:]))
	if n > (len(buf)-v-4)/4 {
		return fmt.Errorf("flatbuffers: vector of %d offsets at %d overruns the buffer", n, v)
	}
	for i := range n {
		e := v + 4 + 4*i
		if err := verifyTable(buf, e+int(le.Uint32(buf[e:])), fields); err != nil {
			return err
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
	n := int(le.Uint32(stream))
	if n < 4 || n > len(stream)-4 {
		return nil, 0, 0, fmt.Errorf("flatbuffers: size prefix %d, %d bytes left", n, len(stream)-4)
	}
	buf = stream[4 : 4+n]
	return buf, int(le.Uint32(buf)), 4 + n, nil
}
