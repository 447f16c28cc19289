using Grpc.Core;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Gateway.Transports.Grpc;

namespace Notifications.Gateway.Transports;

/// <summary>
/// <c>notifications.live.v1.Live/Connect</c>: a mobile app's bidirectional stream (<c>Transports/live.proto</c>). The token is
/// the metadata <c>authorization: Bearer &lt;jwt&gt;</c>, checked before anything is sent: a refused one ends the call with
/// UNAUTHENTICATED and the reason. Then the same session as a WebSocket's (<see cref="LiveSession"/>).
/// </summary>
internal sealed class LiveGrpcService(
    LiveTokenCheck tokens, LivePendingRows pending, Presence presence, IOptions<GatewayOptions> options, IHostApplicationLifetime lifetime,
    ILogger<LiveGrpcService> logger) : Live.LiveBase
{
    private const string Bearer = "Bearer ";

    public override async Task Connect(IAsyncStreamReader<ClientMessage> requestStream, IServerStreamWriter<ServerMessage> responseStream, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        string? header = context.RequestHeaders.GetValue("authorization");
        if (header is null || !header.StartsWith(Bearer, StringComparison.OrdinalIgnoreCase))
        {
            throw new RpcException(new Status(StatusCode.Unauthenticated, "no token: send the metadata 'authorization: Bearer <jwt>'"));
        }

        var (subscriber, refusal) = await tokens.ValidateAsync(header[Bearer.Length..].Trim());
        if (subscriber is null)
        {
            throw new RpcException(new Status(StatusCode.Unauthenticated, refusal!));
        }

        var transport = new GrpcTransport(requestStream, responseStream);
        await new LiveSession(transport, subscriber, pending, presence, options.Value, logger).RunAsync(context.CancellationToken, lifetime.ApplicationStopping);
        if (transport.Status is { StatusCode: not StatusCode.OK } status)
        {
            throw new RpcException(status);
        }
    }
}
