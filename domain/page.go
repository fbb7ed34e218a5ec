package domain

// Page sizes of list methods.
const (
	DefaultLimit = 20  // when a filter's Limit is 0
	MaxLimit     = 100 // a larger Limit is EInvalid
)

// Page is one page of a list and the total number of matching items.
type Page[T any] struct {
	Items  []T
	Total  int
	Limit  int
	Offset int
	// Stamp, when not empty, names the page's content as the caller is
	// shown it: two pages of one list with the same stamp are the same
	// answer, so that it may be kept encoded and named by an ETag. It is
	// made from what the page read that tells its content apart (rows'
	// versions), without reading or hashing every field.
	Stamp string
}

// checkPage validates a filter's paging, defaulting a zero limit.
func checkPage(v *Validator, limit, offset *int) {
	if *limit == 0 {
		*limit = DefaultLimit
	}
	v.Check(*limit >= 1 && *limit <= MaxLimit, "limit", "out_of_range", "limit must be between 1 and 100")
	v.Check(*offset >= 0, "offset", "out_of_range", "offset must not be negative")
}

// ValidPage checks the paging of a list that needs no service (a fixed
// catalogue), as the services check theirs: a zero limit is DefaultLimit.
// Errors: EInvalid naming limit or offset.
func ValidPage(limit, offset int) (int, error) {
	var v Validator
	checkPage(&v, &limit, &offset)
	return limit, v.Err()
}
