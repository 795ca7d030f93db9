// hello.go defines protocol v2's handshake (PROTOCOL.md, "Version 2"): the
// client's hello, a request with no graph, and the server's answer, which
// declares what the structurizer promises for the options of the hello.
// Requests after it carry "v":2 and are otherwise those of v1.

package proto

// Version2 is the protocol version of the handshake and the requests after it.
const Version2 = 2

// Hello asks a v2 server what it promises for Options (the options of the
// requests that follow).
type Hello struct {
	Options Options `json:"options"`
}

// Promises are the properties a structurizer declares. The zero value
// promises nothing: every property false, no block bound.
type Promises struct {
	// Deterministic: the same request twice gives the same answer, byte
	// for byte (meta checks it).
	Deterministic bool `json:"deterministic"`
	// Idempotent: structurizing the CFG of its own output adds no block
	// beyond a fixed overhead (meta checks it).
	Idempotent bool `json:"idempotent"`
	// RenumberingInvariant: renumbering the blocks (entry fixed) gives an
	// isomorphic module (meta checks it).
	RenumberingInvariant bool `json:"renumbering_invariant"`
	// Switches: graphs with blocks of 3 or more successors are served;
	// false makes such a graph `unsupported` (not sent).
	Switches bool `json:"switches"`
	// Irreducible: irreducible graphs are served; false makes them
	// `unsupported`.
	Irreducible bool `json:"irreducible"`
	// MaxBlocks: the largest graph served, in blocks; 0 no bound. A larger
	// graph is `unsupported`.
	MaxBlocks int `json:"max_blocks,omitempty"`
	// MaxCloneWords: no copy of a block (a block reporting an original
	// id another block already reports) duplicates a block heavier than
	// this many words; 0 no promise. The growth check holds the module to
	// it (growth:clone-weight).
	MaxCloneWords int `json:"max_clone_words,omitempty"`
}

// HelloAnswer is a v2 server's answer to a hello (Response.Hello).
type HelloAnswer struct {
	V        int      `json:"v"`              // 2
	Name     string   `json:"name,omitempty"` // the structurizer, for reports
	Promises Promises `json:"promises"`
}

// Declare says what a server promises for the options of a hello.
type Declare func(Options) HelloAnswer
