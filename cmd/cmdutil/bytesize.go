package cmdutil

import (
	"fmt"
	"math"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"
)

// byteSize is a flag of a number of bytes, written as a number or with a
// unit: 4GiB, 512MiB, 4GB (10^9), 1.5GiB.
type byteSize[T int | int64] struct{ p *T }

func (b byteSize[T]) String() string {
	if b.p == nil || *b.p == 0 {
		return "0"
	}
	return strings.ReplaceAll(humanize.IBytes(uint64(*b.p)), " ", "")
}

func (b byteSize[T]) Set(s string) error {
	n, err := humanize.ParseBytes(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("not a size in bytes (say 4GiB, 512MiB or 1073741824)")
	}
	if n > uint64(math.MaxInt64) || T(n) < 0 || uint64(T(n)) != n {
		return fmt.Errorf("%s is too large", s)
	}
	*b.p = T(n)
	return nil
}

func (b byteSize[T]) Type() string { return "bytes" }

// BytesVar defines a flag of a number of bytes, written as a number or
// with a unit: 4GiB, 512MiB, 4GB (10^9). leaper-bench uses it too.
func BytesVar[T int | int64](fs *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	fs.Var(byteSize[T]{p}, name, usage)
}
