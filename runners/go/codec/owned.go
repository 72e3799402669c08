package codec

import "io"

// Library is a reflection-based library (it encodes any Go value, and
// decodes into one) as one codec uses it.
type Library struct {
	// Append writes v's encoding at the end of dst.
	Append    func(dst []byte, v any) ([]byte, error)
	Unmarshal func(body []byte, v any) error
	// Delimit, where the encoding delimits itself (a BSON document's
	// length), is the length of the message at the start of stream: Append
	// writes it as it is. Otherwise every record is framed with a 4-byte
	// length prefix.
	Delimit func(stream []byte) (int, error)
}

// Encoder is a library's encoder: it writes any value to the io.Writer it
// was made with.
type Encoder interface {
	Encode(v any) error
}

// Streaming is the Append of a library whose encoder writes to an
// io.Writer: one encoder, made here, writes straight into the stream.
func Streaming(newEncoder func(io.Writer) Encoder) func(dst []byte, v any) ([]byte, error) {
	out := &Appender{}
	e := newEncoder(out)
	return func(dst []byte, v any) ([]byte, error) {
		out.B = dst
		err := e.Encode(v)
		return out.B, err
	}
}

// Owned adapts a Library to records R feeding sinks S: each record is
// decoded into one reused record, reset first so a field the format dropped
// cannot keep the previous record's value.
type Owned[R any, S any] struct {
	Library
	Feed   func(*R, S)
	record R
}

func (c *Owned[R, S]) Encode(stream []byte, r *R) ([]byte, error) {
	if c.Delimit != nil {
		return c.Append(stream, r)
	}
	stream, at := Reserve(stream)
	stream, err := c.Append(stream, r)
	if err != nil {
		return stream[:at], err
	}
	return Seal(stream, at)
}

func (c *Owned[R, S]) Decode(stream []byte, sink S) (int, error) {
	body, n, err := c.frame(stream)
	if err != nil {
		return 0, err
	}
	var zero R
	c.record = zero
	if err := c.Unmarshal(body, &c.record); err != nil {
		return 0, err
	}
	c.Feed(&c.record, sink)
	return n, nil
}

// frame is the body of the record at the start of stream and the bytes the
// record takes.
func (c *Owned[R, S]) frame(stream []byte) ([]byte, int, error) {
	if c.Delimit == nil {
		return Frame(stream)
	}
	n, err := c.Delimit(stream)
	if err != nil {
		return nil, 0, err
	}
	return stream[:n], n, nil
}

// Appender is an io.Writer that appends to a byte slice, so a streaming
// encoder can write straight into the stream.
type Appender struct{ B []byte }

func (a *Appender) Write(p []byte) (int, error) {
	a.B = append(a.B, p...)
	return len(p), nil
}

// WriteByte and WriteString spare encoders that look for them (msgpack) a
// wrapper of their own.
func (a *Appender) WriteByte(c byte) error {
	a.B = append(a.B, c)
	return nil
}

func (a *Appender) WriteString(s string) (int, error) {
	a.B = append(a.B, s...)
	return len(s), nil
}
