// idtable.go defines idTable, a map from SPIR-V result ids to words that
// empties in constant time: ids below its dense size (the module's id
// bound, at most idTableDense) live in arrays stamped with a generation,
// so emptying it is one increment; ids above (a module whose bound is
// huge, or that uses ids past its bound) live in a Go map. The filler
// reading (filler.go) empties its tables at every block.

package oracle

// idTableDense is the most ids an idTable keeps in its arrays: 65,536 ids
// is 512 KiB of arrays, and campaign modules stay far below it.
const idTableDense = 1 << 16

// idTable maps ids to words. The zero value is an empty table of no
// dense size: every id goes to the map until reset gives it one.
type idTable struct {
	vals []uint32
	gens []uint32 // gens[id] == gen: vals[id] is set
	gen  uint32
	far  map[uint32]uint32 // ids at or past len(vals)
}

// reset empties t and sizes its arrays for ids below bound (at most
// idTableDense of them).
func (t *idTable) reset(bound uint32) {
	n := int(min(bound, idTableDense))
	if len(t.vals) < n {
		t.vals, t.gens, t.gen = make([]uint32, n), make([]uint32, n), 0
	}
	t.clear()
}

// clear empties t, keeping its dense size.
func (t *idTable) clear() {
	t.gen++
	if t.gen == 0 { // the stamps wrapped around: forget them all
		clear(t.gens)
		t.gen = 1
	}
	if len(t.far) > 0 {
		clear(t.far)
	}
}

// get is id's word and whether id is set; 0 when it is not.
func (t *idTable) get(id uint32) (uint32, bool) {
	if int64(id) < int64(len(t.vals)) {
		if t.gens[id] != t.gen {
			return 0, false
		}
		return t.vals[id], true
	}
	v, ok := t.far[id]
	return v, ok
}

// has says whether id is set.
func (t *idTable) has(id uint32) bool {
	_, ok := t.get(id)
	return ok
}

// set sets id's word to v and says whether id was set before.
func (t *idTable) set(id, v uint32) (was bool) {
	if int64(id) < int64(len(t.vals)) {
		was = t.gens[id] == t.gen
		t.vals[id], t.gens[id] = v, t.gen
		return was
	}
	if t.far == nil {
		t.far = map[uint32]uint32{}
	}
	_, was = t.far[id]
	t.far[id] = v
	return was
}
