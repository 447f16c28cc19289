using System.Net;
using System.Net.Http.Headers;

namespace Notifications.Consumer.Channels.Http;

/// <summary>
/// A request body (webhooks, push) that knows whether it was handed to the connection in full: a request cut off before that
/// was not sent (transient); after it, the receiver may have acted on it (unknown).
/// </summary>
internal sealed class TrackedContent : HttpContent
{
    private readonly byte[] _body;
    private volatile bool _written;

    public TrackedContent(byte[] body, MediaTypeHeaderValue contentType)
    {
        _body = body;
        Headers.ContentType = contentType;
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
