using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Notifications.Consumer.Channels.Http;
using Notifications.Consumer.RateLimiting;
using Polly.Timeout;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// Sends one webhook: its turn spends its host's rate-limit slot (when the host has one), then the send signs it
/// (<see cref="WebhookSigner"/>), POSTs it through the shared client of its kind (private addresses allowed or not) and
/// classifies the answer (<see cref="WebhookFailures"/>). A 410 disables the endpoint in the table; a slow-down with
/// Retry-After pauses the host in this process (its notifications are parked meanwhile, <see cref="RetryAfterPauses"/>) and
/// any slow-down lowers its rate for the fleet. Thread-safe: the handlers' senders share the clients.
/// </summary>
internal sealed class WebhookSender(WebhookSenderParts parts, HttpClient publicOnly, HttpClient privateAllowed) : IChannelSender
{
    private const int ExcerptBytes = 300;
    private static readonly MediaTypeHeaderValue JsonUtf8 = new("application/json") { CharSet = "utf-8" };

    public Task WaitTurnAsync(Outgoing outgoing, CancellationToken cancellationToken)
    {
        string host = ((WebhookRequest)outgoing).Host;
        return parts.RateLimits.Domains.TryGetValue(host, out var rate)
            ? parts.Limiter.SpendAsync(RateLimitSettings.DomainKey(host), rate, cancellationToken)
            : Task.CompletedTask;
    }

    public async Task SendAsync(Outgoing outgoing, CancellationToken cancellationToken)
    {
        var request = (WebhookRequest)outgoing;
        var now = parts.Time.GetUtcNow();
        using var content = new TrackedContent(Encoding.UTF8.GetBytes(request.Body), JsonUtf8);
        using var message = new HttpRequestMessage(HttpMethod.Post, request.Url)
        {
            Content = content,
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionOrLower,
        };
        message.Headers.Add("webhook-id", request.WebhookId);
        message.Headers.Add("webhook-timestamp", now.ToUnixTimeSeconds().ToString(System.Globalization.CultureInfo.InvariantCulture));
        message.Headers.Add("webhook-signature", parts.Signer.Sign(request.Endpoint.SigningSecrets(now), request.WebhookId, now, request.Body));

        HttpResponseMessage response;
        try
        {
            var client = request.Endpoint.AllowPrivate ? privateAllowed : publicOnly;
            response = await client.SendAsync(message, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        }
        catch (Exception ex) when (ex is HttpRequestException or TimeoutRejectedException
                                   || (ex is OperationCanceledException && content.Written))
        {
            var failure = WebhookFailures.NoAnswer(ex, request, content.Written);
            if (failure.Kind == SendFailureKind.Permanent)
            {
                WebhookLog.PrivateAddressRefused(parts.Logger, request.Endpoint.Name, failure.Message);
            }

            throw failure;
        }

        using (response)
        {
            if (response.IsSuccessStatusCode)
            {
                return;
            }

            throw await FailedAsync(request, response, content.Written, cancellationToken);
        }
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private async Task<WebhookSendException> FailedAsync(
        WebhookRequest request, HttpResponseMessage response, bool written, CancellationToken cancellationToken)
    {
        int status = (int)response.StatusCode;
        var retryAfter = RetryAfterHeader.Delay(response.Headers.RetryAfter, parts.Time.GetUtcNow(), parts.Options.MaxRetryAfter);
        bool slowDown = WebhookFailures.IsSlowDown(status, retryAfter);
        var failure = WebhookFailures.Answered(status, response.ReasonPhrase, await ExcerptAsync(response, cancellationToken), request, slowDown, written);
        if (slowDown)
        {
            await SlowDownAsync(request, status, retryAfter, failure.Message, cancellationToken);
        }
        else if (WebhookFailures.IsGone(status))
        {
            await DisableAsync(request, failure.Message, cancellationToken);
        }

        return failure;
    }

    private async Task SlowDownAsync(WebhookRequest request, int status, TimeSpan? retryAfter, string reply, CancellationToken cancellationToken)
    {
        if (retryAfter is { } pause && pause > TimeSpan.Zero)
        {
            var until = parts.Time.GetUtcNow() + pause;
            parts.Pauses.Pause(request.Host, until);
            WebhookLog.Paused(parts.Logger, request.Host, status, until);
        }

        if (parts.RateLimits.Domains.ContainsKey(request.Host))
        {
            await parts.Limiter.SlowDownAsync(RateLimitSettings.DomainKey(request.Host), reply, cancellationToken);
        }
    }

    // Gone for good: the endpoint is disabled for the fleet (the table) and for this process at once (the cache). If the
    // table cannot be written the message is dead-lettered all the same; the next 410 tries again.
    private async Task DisableAsync(WebhookRequest request, string answer, CancellationToken cancellationToken)
    {
        string reason = $"410 Gone from the endpoint at {parts.Time.GetUtcNow():O}: {answer}";
        WebhookLog.EndpointGone(parts.Logger, request.Endpoint.Name, request.NotificationId, answer);
        parts.Endpoints.MarkDisabled(request.Endpoint, reason, parts.Time.GetUtcNow());
        try
        {
            await parts.Store.DisableAsync(request.Endpoint.Name, reason, cancellationToken);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            WebhookLog.DisableFailed(parts.Logger, request.Endpoint.Name, ex);
        }
    }

    // The first bytes of the answer, for the dead letter's reason: what the receiver said, on one line.
    private static async Task<string> ExcerptAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        try
        {
            await using var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
            byte[] buffer = new byte[ExcerptBytes];
            int read = await stream.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken);
            return Encoding.UTF8.GetString(buffer, 0, read).ReplaceLineEndings(" ").Trim();
        }
        catch (Exception ex) when (ex is HttpRequestException or IOException or TimeoutRejectedException)
        {
            return "";
        }
    }
}
