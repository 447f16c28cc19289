using System.Text.Json;
using Grpc.Core;
using Notifications.Gateway.Transports.Grpc;

namespace Notifications.Gateway.Transports;

/// <summary>
/// The live channel over a gRPC bidirectional stream (mobile apps; <c>Transports/live.proto</c>): a notification is a
/// <see cref="Notification"/> message made from the consumer's JSON frame, the client's acks are <see cref="Ack"/> messages.
/// The gateway's end of the call is a status (<see cref="Status"/>), raised by <see cref="LiveGrpcService"/> once the session is
/// over: OK, INVALID_ARGUMENT (malformed), RESOURCE_EXHAUSTED (not reading), INTERNAL (failed), UNAVAILABLE (stopping).
/// </summary>
internal sealed class GrpcTransport(IAsyncStreamReader<ClientMessage> requests, IServerStreamWriter<ServerMessage> responses) : ILiveTransport
{
    /// <summary>How the gateway ended the call, once it has: the status the service ends it with.</summary>
    public Status? Status { get; private set; }

    public async ValueTask SendAsync(LiveFrame frame, CancellationToken cancellationToken) =>
        await responses.WriteAsync(new ServerMessage { Notification = ToNotification(frame) }, cancellationToken);

    public async ValueTask<LiveInput> ReceiveAsync(CancellationToken cancellationToken)
    {
        if (!await requests.MoveNext(cancellationToken))
        {
            return LiveInput.End;
        }

        return requests.Current is { KindCase: ClientMessage.KindOneofCase.Ack, Ack.Id: > 0 } message ? LiveInput.Ack(message.Ack.Id) : LiveInput.Malformed;
    }

    public Task CloseAsync(LiveClose close, CancellationToken cancellationToken)
    {
        Status = close switch
        {
            LiveClose.Malformed => new Status(StatusCode.InvalidArgument, "expected an Ack with the id of a notification"),
            LiveClose.NotReading => new Status(StatusCode.ResourceExhausted, "the client did not read its notifications: reconnect to receive them"),
            LiveClose.Failed => new Status(StatusCode.Internal, "the gateway failed: reconnect"),
            LiveClose.Stopping => new Status(StatusCode.Unavailable, "the gateway is stopping: reconnect"),
            _ => global::Grpc.Core.Status.DefaultSuccess,
        };
        return Task.CompletedTask;
    }

    public bool IsGone(Exception exception) => exception is OperationCanceledException or IOException or RpcException;

    // The consumer's frame: {"type":"notification","id":"…","subject":…,"body":…,"data":{…}} (LiveFrames).
    private static Notification ToNotification(LiveFrame frame)
    {
        using var document = JsonDocument.Parse(frame.Bytes);
        var root = document.RootElement;
        var notification = new Notification { Id = frame.Id };
        if (root.TryGetProperty("subject", out var subject) && subject.ValueKind == JsonValueKind.String)
        {
            notification.Subject = subject.GetString();
        }

        if (root.TryGetProperty("body", out var body) && body.ValueKind == JsonValueKind.String)
        {
            notification.Body = body.GetString();
        }

        if (root.TryGetProperty("data", out var data) && data.ValueKind == JsonValueKind.Object)
        {
            foreach (var entry in data.EnumerateObject())
            {
                notification.Data[entry.Name] = entry.Value.ValueKind == JsonValueKind.String
                    ? entry.Value.GetString()
                    : entry.Value.GetRawText();
            }
        }

        return notification;
    }
}
