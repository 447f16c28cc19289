using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// One listener of a test server on 127.0.0.1: its HTTP versions, with TLS or plain, on a free port (0) or the one given
/// (a server started again where its clients expect it).
/// </summary>
internal sealed record ReceiverEndpoint(HttpProtocols Protocols, bool Tls, int Port = 0);
