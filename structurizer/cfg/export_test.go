package cfg

// ReferenceForest is the reference component search's forest of g, for
// the tests of package cfg_test.
var ReferenceForest = referenceForest
