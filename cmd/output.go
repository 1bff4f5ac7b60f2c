package cmd

import "io"

// writeOneOrMany prints one value as a JSON object, several as a list.
func writeOneOrMany[T any](w io.Writer, vs []T) error {
	if len(vs) == 1 {
		return writeJSON(w, vs[0])
	}
	return writeJSON(w, vs)
}

// mapErr applies f to each element, stopping at the first error.
func mapErr[A, B any](as []A, f func(A) (B, error)) ([]B, error) {
	bs := make([]B, 0, len(as))
	for _, a := range as {
		b, err := f(a)
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	return bs, nil
}
