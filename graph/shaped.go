package graph

// Rejection reasons for whole tables. Stable strings: stats count by them.
const (
	RejectTooFewRows    = "too few rows"
	RejectTooManyRows   = "too many rows"
	RejectTooFewCols    = "too few columns"
	RejectTooManyCols   = "too many columns"
	RejectMerged        = "merged cells break structure"
	RejectRagged        = "ragged rows"
	RejectNoKey         = "no key column"
	RejectNoRelation    = "no relation column after cleaning"
	RejectDuplicate     = "duplicate table"
	RejectEmptyHeader   = "empty header"
	RejectBlocks        = "side-by-side blocks"
	RejectSubHeaded     = "groups under sub-headers"
	DropSerial          = "serial number"
	DropRank            = "rank only"
	DropNotes           = "notes"
	DropReference       = "reference"
	DropImage           = "image"
	DropEmpty           = "empty"
	DropSectionRow      = "section row"
	DropDuplicateHeader = "duplicate column"
	DropGroupFigure     = "a figure of another column's group"
)

// Value is a cleaned cell value, identified by Key before the store gives
// it an id.
type Value struct {
	Key  string
	Name string
	Type Datatype
	URL  string
	// Surface is the text as written, recorded as an alias when it differs
	// from Name.
	Surface string
}

// Shaped is a table cleaned and shaped into a reasoning tree whose entities
// are still keys. The store turns it into a Tree.
type Shaped struct {
	Group       string
	Question    []Value
	KeyHeader   string
	KeyDatatype Datatype
	KeyDomain   string
	Columns     []Column // Relation unset
	Keys        []Value
	Values      [][][]Value // row, column, values
	Dropped     []string    // "header: reason"
	DroppedRows int         // section rows removed
	// SeveralKeys counts the key cells that link several articles, each
	// a thing of its own ("Marcus Kinhult Linnea Ström").
	SeveralKeys int
	// Stated holds what the table's own total row states for a column of
	// figures, by relation name (see Tree.Stated).
	Stated map[string]string
}

// Reject is why a table was not made into a tree.
type Reject struct{ Reason, Detail string }

func (r *Reject) Error() string {
	if r.Detail == "" {
		return r.Reason
	}
	return r.Reason + ": " + r.Detail
}
