package graph

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// badgerLogger adapts slog to Badger's logger, which otherwise prints INFO
// lines to stderr. Badger's INFO goes to Debug: it is chatty.
type badgerLogger struct{ l *slog.Logger }

func (b badgerLogger) log(level slog.Level, f string, args ...any) {
	if b.l.Enabled(context.Background(), level) {
		b.l.Log(context.Background(), level, strings.TrimSpace(fmt.Sprintf(f, args...)), "component", "badger")
	}
}

func (b badgerLogger) Errorf(f string, a ...any)   { b.log(slog.LevelError, f, a...) }
func (b badgerLogger) Warningf(f string, a ...any) { b.log(slog.LevelWarn, f, a...) }
func (b badgerLogger) Infof(f string, a ...any)    { b.log(slog.LevelDebug, f, a...) }
func (b badgerLogger) Debugf(f string, a ...any)   { b.log(slog.LevelDebug-4, f, a...) }

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
