using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>One listener of a test server on 127.0.0.1 and a free port (or <paramref name="Port"/>): its HTTP versions, with TLS or plain.</summary>
internal sealed record ReceiverEndpoint(HttpProtocols Protocols, bool Tls, int Port = 0);
