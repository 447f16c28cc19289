using System.Net;
using System.Net.Http.Headers;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// A JSON request body that knows whether it was handed to the connection: a request cut off after that may have been
/// delivered (unknown), one cut off before it was not sent (transient).
/// </summary>
internal sealed class TrackedContent : HttpContent
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");
    private readonly byte[] _body;
    private volatile bool _written;

    public TrackedContent(byte[] body)
    {
        _body = body;
        Headers.ContentType = Json;
    }

    /// <summary>Whether the whole body was written to the connection (at least once).</summary>
    public bool Written => _written;

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        await stream.WriteAsync(_body, cancellationToken);
        _written = true;
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override bool TryComputeLength(out long length)
    {
        length = _body.Length;
        return true;
    }
}
