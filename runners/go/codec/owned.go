package codec

// Owned adapts a library that encodes a Go value and decodes into one (the
// reflection-based ones): each record is framed with a length prefix and
// decoded into one reused record, reset first so a field the format dropped
// cannot keep the previous record's value.
type Owned[R any, S any] struct {
	// Append writes r's encoding at the end of dst.
	Append    func(dst []byte, r *R) ([]byte, error)
	Unmarshal func(body []byte, r *R) error
	Feed      func(*R, S)
	record    R
}

func (c *Owned[R, S]) Encode(stream []byte, r *R) ([]byte, error) {
	stream, at := Reserve(stream)
	stream, err := c.Append(stream, r)
	if err != nil {
		return stream[:at], err
	}
	return Seal(stream, at)
}

func (c *Owned[R, S]) Decode(stream []byte, sink S) (int, error) {
	body, n, err := Frame(stream)
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
