package interopstream

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// windowBytes is what a window of a stream being decoded may hold before it
// reaches window records; only a single larger record grows it.
const windowBytes = 1 << 20

// records reads a stream a window of records at a time, cut by the record
// ends beside it (the stream's path with the extension .ends: one u64 LE
// end offset per record), so a decode holds one window whatever the
// stream's size.
type records struct {
	stream   *os.File
	ends     *os.File
	endsIn   *bufio.Reader
	endsPath string
	size     uint64 // the stream's bytes
	count    uint64 // the record ends the file holds
	read     uint64 // the record ends read into windows
	at       uint64 // the stream offset of buf[0]
	buf      []byte // the window: whole records, reused
	win      []int  // the window's record ends, relative to buf
	next     int    // the window's record that record() hands out next
	end      uint64 // the stream offset after the last record handed out
}

// endsPath is where the record ends of the stream at path are.
func endsPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".ends"
}

// openRecords opens a stream and its record ends, checking that the ends
// file is whole u64s and that its last end is the stream's length.
func openRecords(path string) (*records, error) {
	r := &records{endsPath: endsPath(path), buf: make([]byte, 0, windowBytes), win: make([]int, 0, window)}
	fail := func(err error) (*records, error) {
		r.Close()
		return nil, err
	}
	var err error
	if r.stream, err = os.Open(path); err != nil {
		return fail(err)
	}
	info, err := r.stream.Stat()
	if err != nil {
		return fail(err)
	}
	r.size = uint64(info.Size())
	if r.ends, err = os.Open(r.endsPath); err != nil {
		return fail(fmt.Errorf("the stream's record ends: %w", err))
	}
	if info, err = r.ends.Stat(); err != nil {
		return fail(err)
	}
	if info.Size()%8 != 0 {
		return fail(fmt.Errorf("%s: %d bytes, not a whole number of u64 record ends", r.endsPath, info.Size()))
	}
	r.count = uint64(info.Size()) / 8
	last := uint64(0)
	if r.count > 0 {
		var b [8]byte
		if _, err := r.ends.ReadAt(b[:], info.Size()-8); err != nil {
			return fail(fmt.Errorf("%s: %w", r.endsPath, err))
		}
		last = binary.LittleEndian.Uint64(b[:])
	}
	if last > r.size {
		return fail(fmt.Errorf("%s: the last record ends at byte %d, beyond the stream's %d bytes", r.endsPath, last, r.size))
	}
	if last < r.size {
		return fail(fmt.Errorf("%s: the stream has %d bytes after its last record's end (byte offset %d)", r.endsPath, r.size-last, last))
	}
	r.endsIn = bufio.NewReaderSize(r.ends, 1<<16)
	return r, nil
}

// record hands out the next record's bytes, valid until the next call, and
// its stream offset; io.EOF after the last.
func (r *records) record() ([]byte, uint64, error) {
	if r.next == len(r.win) {
		if r.read == r.count {
			return nil, 0, io.EOF
		}
		if err := r.fill(); err != nil {
			return nil, 0, err
		}
	}
	start := 0
	if r.next > 0 {
		start = r.win[r.next-1]
	}
	end := r.win[r.next]
	r.next++
	r.end = r.at + uint64(end)
	return r.buf[start:end:end], r.at + uint64(start), nil
}

// fill reads the next window: up to window records, as many as fit in buf,
// but at least one, buf grown for it if need be.
func (r *records) fill() error {
	r.at += uint64(len(r.buf))
	r.win, r.next = r.win[:0], 0
	start := r.at
	for len(r.win) < window && r.read < r.count {
		b, err := r.endsIn.Peek(8)
		if err != nil {
			return fmt.Errorf("%s: %w", r.endsPath, err)
		}
		end := binary.LittleEndian.Uint64(b)
		if end > r.size {
			return fmt.Errorf("%s: record %d ends at byte %d, beyond the stream's %d bytes", r.endsPath, r.read, end, r.size)
		}
		if end <= start {
			return fmt.Errorf("%s: record %d ends at byte %d, not after its start at %d", r.endsPath, r.read, end, start)
		}
		if len(r.win) > 0 && end-r.at > uint64(cap(r.buf)) {
			break
		}
		r.endsIn.Discard(8)
		r.win = append(r.win, int(end-r.at))
		r.read++
		start = end
	}
	n := r.win[len(r.win)-1]
	if n > cap(r.buf) {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if _, err := io.ReadFull(r.stream, r.buf); err != nil {
		return fmt.Errorf("%s: %w", r.stream.Name(), err)
	}
	return nil
}

func (r *records) Close() {
	if r.stream != nil {
		r.stream.Close()
	}
	if r.ends != nil {
		r.ends.Close()
	}
}
