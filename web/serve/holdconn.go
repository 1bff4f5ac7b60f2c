package serve

import (
	"context"
	"net"
	"sync"
)

// A replica killed mid-answer leaves its balancer a cut answer it cannot
// retry: HAProxy has forwarded the first bytes. net/http writes an answer
// over 4 KB in two writes (its buffer, then the rest), and a SIGKILL lands
// between them as often as not, since a thread in a write takes the signal
// as it returns. So Serve's connections hold each answer's writes and send
// them in one write: a replica killed before it leaves nothing (the
// balancer retries the request elsewhere), after it the whole answer.

// holdConn is a connection that can hold its writes and send them as one.
type holdConn struct {
	net.Conn
	mu   sync.Mutex
	held bool
	buf  []byte
}

func (c *holdConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if c.held {
		c.buf = append(c.buf, p...)
		c.mu.Unlock()
		return len(p), nil
	}
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// hold starts holding writes.
func (c *holdConn) hold() {
	c.mu.Lock()
	c.held = true
	c.mu.Unlock()
}

// release sends what was held in one write and stops holding.
func (c *holdConn) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = false
	if len(c.buf) > 0 {
		c.Conn.Write(c.buf) // an error shows at the next read or write
	}
	if cap(c.buf) > 1<<20 {
		c.buf = nil // one big answer does not pin its buffer
	} else {
		c.buf = c.buf[:0]
	}
}

type holdListener struct{ net.Listener }

func (l holdListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &holdConn{Conn: c}, nil
}

type holdKey struct{}

// connContext gives a request its connection, when it can hold writes.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if hc, ok := c.(*holdConn); ok {
		return context.WithValue(ctx, holdKey{}, hc)
	}
	return ctx
}

func heldConn(ctx context.Context) *holdConn {
	hc, _ := ctx.Value(holdKey{}).(*holdConn)
	return hc
}
