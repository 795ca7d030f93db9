// module.go: the module form (not yet).

package main

import "errors"

func emitModule(f *fn, registers int) ([]byte, error) {
	return nil, errors.New("module form not written")
}
