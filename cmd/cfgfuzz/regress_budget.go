// regress_budget.go: regress's --duration, the time budget of a replay,
// after run's --duration: no file starts past it and the case in flight
// finishes; unlike a campaign, whose budget ends it complete, a replay
// that leaves files unreplayed is incomplete (regress.go says so in the
// summary, the JUnit file and the exit status).

package main

import (
	"fmt"
	"time"
)

// replayBudget is a replay's time budget. The zero value has none.
type replayBudget struct {
	limit    time.Duration
	deadline time.Time // zero: no budget
}

// newReplayBudget starts a budget of limit from now; 0 is none.
func newReplayBudget(limit time.Duration) replayBudget {
	if limit <= 0 {
		return replayBudget{}
	}
	return replayBudget{limit: limit, deadline: time.Now().Add(limit)}
}

// spent says whether the budget ran out (never without one).
func (b replayBudget) spent() bool {
	return !b.deadline.IsZero() && !time.Now().Before(b.deadline)
}

// outOfTime words the budget running out.
func (b replayBudget) outOfTime() string {
	return fmt.Sprintf("the time budget, --duration %v, ran out", b.limit)
}
