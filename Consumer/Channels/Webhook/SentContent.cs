using System.Net;
using System.Text;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The JSON body, which knows whether it was written to the connection in full: a failure before that is a request the
/// receiver never had (transient); after it, the receiver may have acted on it (unknown).
/// </summary>
internal sealed class SentContent : HttpContent
{
    private readonly byte[] _body;

    public SentContent(string body)
    {
        _body = Encoding.UTF8.GetBytes(body);
        Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
    }

    public bool Written { get; private set; }

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        await stream.WriteAsync(_body, cancellationToken);
        Written = true;
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override bool TryComputeLength(out long length)
    {
        length = _body.Length;
        return true;
    }
}
