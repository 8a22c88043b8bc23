import { socketWelcome, type SocketWelcome } from '@imprest/domain/realtime.ts';
import { io as connectSocket, type Socket } from 'socket.io-client';

/**
 * A socket.io client signed in with `token`, once the server has put it in its rooms: resolves
 * with the `welcome` it was then sent (docs/decisions/0030), rejects when the handshake is refused.
 * WebSocket only, as several processes require (docs/decisions/0016); no reconnection.
 */
export function connectWelcomed(
  url: string,
  token: string,
): Promise<{ socket: Socket; welcome: SocketWelcome }> {
  const socket = connectSocket(url, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('welcome', (welcome: unknown) =>
      resolve({ socket, welcome: socketWelcome.parse(welcome) }),
    );
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}
