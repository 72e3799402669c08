package harness

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// ZstdLevel is the zstd level of the compressed sizes, as in the Rust runner.
const ZstdLevel = 3

// zstdWindow is libzstd's window at level 3 (windowLog 21). klauspost's own
// default is 8 MiB, and every format's encoder stays open for a whole run:
// with 19 formats that alone held ~600 MB on a 100,000-record input.
const zstdWindow = 1 << 21

// zstdCounter compresses a format's whole stream, window by window, and
// counts the compressed bytes without keeping them.
type zstdCounter struct {
	bytes   uint64
	encoder *zstd.Encoder
}

func (z *zstdCounter) Write(p []byte) (int, error) {
	z.bytes += uint64(len(p))
	return len(p), nil
}

func newZstdCounter() *zstdCounter {
	z := &zstdCounter{}
	// klauspost/compress maps zstd's level 3 to its SpeedDefault; single-threaded so
	// it does not compete with the measured passes for the other core.
	encoder, err := zstd.NewWriter(z, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(ZstdLevel)), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(zstdWindow), zstd.WithLowerEncoderMem(true))
	if err != nil {
		panic(fmt.Sprintf("zstd options are constants: %v", err))
	}
	z.encoder = encoder
	return z
}

func (z *zstdCounter) write(window []byte) error {
	if _, err := z.encoder.Write(window); err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	return nil
}

// finish flushes the encoder and returns the compressed size.
func (z *zstdCounter) finish() (uint64, error) {
	if err := z.encoder.Close(); err != nil {
		return 0, fmt.Errorf("zstd: %w", err)
	}
	return z.bytes, nil
}
