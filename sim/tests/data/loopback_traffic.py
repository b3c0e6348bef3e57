"""Loopback TCP traffic for the capture fixtures (see make_fixtures.sh). Binds to 127.0.0.1 and ::1 only."""
import socket
import threading
import time

SIZES = [1, 7, 100, 1400, 3000]


def serve(listener):
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def handle(conn):
    # Protocol: a 4-byte big-endian request length n, then n bytes; the reply is n // 2 + 1 bytes.
    # n == 0 means "send me 20000 bytes" (bulk); the connection ends when the client closes.
    with conn:
        while True:
            head = recv_exact(conn, 4)
            if head is None:
                return
            n = int.from_bytes(head, "big")
            if n == 0:
                conn.sendall(b"b" * 20000)
                continue
            if recv_exact(conn, n) is None:
                return
            conn.sendall(b"r" * (n // 2 + 1))


def recv_exact(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def listener(family, addr):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, 0))
    s.listen(8)
    threading.Thread(target=serve, args=(s,), daemon=True).start()
    return s.getsockname()[1]


def client(family, addr, port, rounds, mss=None, bulk=False, abort=False, pipelined=0):
    c = socket.socket(family, socket.SOCK_STREAM)
    if mss:
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, mss)
    c.connect((addr, port))
    if pipelined:
        # Back-to-back small segments, replies read only at the end: cumulative and piggybacked ACKs.
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(pipelined):
            n = SIZES[i % 3]
            c.sendall(n.to_bytes(4, "big") + b"p" * n)
        for i in range(pipelined):
            recv_exact(c, SIZES[i % 3] // 2 + 1)
    for i in range(rounds):
        n = SIZES[i % len(SIZES)]
        c.sendall(n.to_bytes(4, "big") + b"q" * n)
        recv_exact(c, n // 2 + 1)
        time.sleep(0.003 * (i % 3))  # let delayed ACKs fire sometimes
    if bulk:
        c.sendall((0).to_bytes(4, "big"))
        recv_exact(c, 20000)
    if abort:
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, (1).to_bytes(4, "little") + (0).to_bytes(4, "little"))
    c.close()


def main():
    p4 = listener(socket.AF_INET, "127.0.0.1")
    p6 = listener(socket.AF_INET6, "::1")
    client(socket.AF_INET, "127.0.0.1", p4, 6)
    client(socket.AF_INET6, "::1", p6, 5)
    client(socket.AF_INET, "127.0.0.1", p4, 2, mss=1000, bulk=True)
    client(socket.AF_INET, "127.0.0.1", p4, 3, abort=True)
    client(socket.AF_INET, "127.0.0.1", p4, 2, pipelined=40)
    client(socket.AF_INET6, "::1", p6, 2, pipelined=25)
    time.sleep(0.3)


if __name__ == "__main__":
    main()
