// A TCP proxy in front of the real Postgres that a test can cut and restore, to watch the service
// lose its database and get it back without a restart; or hold, a partition where packets are neither
// delivered nor refused (connections stay open, nothing arrives) until it is released.
import net from "node:net";

export type TcpProxy = {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Stops forwarding in both directions (bytes wait in the proxy), new connections included. */
  hold(): void;
  /** Forwards again, what waited included. */
  release(): void;
  /** Breaks every connection open now, what was held in it lost; new connections go through (forwarding again). */
  reset(): void;
  close(): Promise<void>;
};

export async function startTcpProxy(targetPort = 5432, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let held = false;
  let server: net.Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on("close", () => sockets.delete(sock));
          sock.on("error", () => {});
        }
        const pair: [net.Socket, net.Socket] = [client, upstream];
        pairs.add(pair);
        if (!held) connect(pair);
        client.on("close", () => pairs.delete(pair));
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const cut = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  // Unpiped and paused, a socket reads nothing: the bytes wait in the kernel, neither delivered nor refused.
  function connect([client, upstream]: [net.Socket, net.Socket]) {
    client.pipe(upstream);
    upstream.pipe(client);
  }
  const hold = () => {
    held = true;
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  };
  const release = () => {
    held = false;
    for (const pair of pairs) connect(pair);
  };

  const reset = () => {
    held = false;
    for (const sock of sockets) sock.destroy();
    pairs.clear();
  };

  await listen();
  return { port, cut, restore: listen, hold, release, reset, close: cut };
}
