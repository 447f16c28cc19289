using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// A webhook endpoint that checks Standard Webhooks signatures (<see cref="StandardWebhookVerifier"/>) on every POST
/// to any path, over HTTPS with the test certificate (HTTP/1.1 and h2) and, when asked, plain HTTP on loopback.
/// It records every delivery and answers 200, the verifier's 400/401, or what the test scripted in <see cref="Script"/>.
/// </summary>
internal sealed class WebhookReceiver : IAsyncDisposable
{
    private const int MaxBodyBytes = 1 << 20;

    private readonly StandardWebhookVerifier verifier;
    private readonly ConcurrentQueue<WebhookDelivery> deliveries = new();
    private readonly bool keepDeliveries;
    private ReceiverHost? host;
    private IReadOnlyList<ReceiverEndpoint> listening = [];

    private WebhookReceiver(TestCertificate certificate, IReadOnlyList<string> secrets, bool keepDeliveries)
    {
        Certificate = certificate;
        verifier = new StandardWebhookVerifier(secrets);
        this.keepDeliveries = keepDeliveries;
    }

    public TestCertificate Certificate { get; }

    /// <summary>The HTTPS endpoint (any path below it is accepted).</summary>
    public Uri Url => new(Host.BaseAddress(0), "hooks");

    /// <summary>The plain-HTTP endpoint on loopback, when started with <c>plainHttp</c>.</summary>
    public Uri? PlainUrl { get; private set; }

    public AnswerScript Script { get; } = new();

    /// <summary>Every delivery, when the receiver keeps them (<see cref="ReceiverMode.KeepRequests"/>; a test's receiver does).</summary>
    public IReadOnlyList<WebhookDelivery> Deliveries => deliveries.ToArray();

    /// <summary>Every delivery counted by its webhook-id; accepted = verified and answered 2xx.</summary>
    public ReceiptCounter Receipts { get; } = new();

    private ReceiverHost Host => host ?? throw new InvalidOperationException("The receiver is not started.");

    /// <summary>Starts a receiver that knows <paramref name="secrets"/> (one, or two during a rotation).</summary>
    public static Task<WebhookReceiver> StartAsync(
        IReadOnlyList<string> secrets, bool plainHttp = false, CancellationToken ct = default) =>
        StartAsync(secrets, plainHttp, ReceiverMode.Test, ct);

    /// <summary>Starts a receiver as <paramref name="mode"/> says (the harness's: its own port, counting only).</summary>
    public static async Task<WebhookReceiver> StartAsync(
        IReadOnlyList<string> secrets, bool plainHttp, ReceiverMode mode, CancellationToken ct)
    {
        var receiver = new WebhookReceiver(TestCertificate.Create(), secrets, mode.KeepRequests);
        List<ReceiverEndpoint> endpoints = [new(HttpProtocols.Http1AndHttp2, Tls: true, mode.Port)];
        if (plainHttp)
        {
            endpoints.Add(new(HttpProtocols.Http1, Tls: false));
        }

        await receiver.ListenAsync(endpoints, ct);
        return receiver;
    }

    /// <summary>
    /// Stops listening (a receiver that is down: connections refused; requests in hand are cut). What it received stays;
    /// <see cref="RestartAsync"/> listens again on the same ports.
    /// </summary>
    public async Task StopAsync()
    {
        if (host is { } running)
        {
            host = null;
            await running.DisposeAsync();
        }
    }

    /// <summary>Listens again, on the ports it had, after <see cref="StopAsync"/>.</summary>
    public Task RestartAsync(CancellationToken ct = default) =>
        host is null ? ListenAsync(listening, ct) : throw new InvalidOperationException("The receiver is running.");

    private async Task ListenAsync(IReadOnlyList<ReceiverEndpoint> endpoints, CancellationToken ct)
    {
        host = await ReceiverHost.StartAsync(Certificate, endpoints, (app, server) =>
        {
            app.MapPost("/{**path}", context => ReceiveAsync(context, server));
            ReceiverHost.MapCounts(app, Receipts);
        }, ct);
        listening = [.. endpoints.Select((e, i) => e with { Port = host.BaseAddress(i).Port })];
        PlainUrl = listening.Count > 1 ? new Uri(host.BaseAddress(1), "hooks") : null;
    }

    /// <summary>How many deliveries (verified or not) carried this webhook-id.</summary>
    public int CountFor(string webhookId) => Receipts.CountFor(webhookId);

    /// <summary>How many verified deliveries carried this webhook-id.</summary>
    public int VerifiedCountFor(string webhookId) =>
        deliveries.Count(d => d.Id == webhookId && d.Verdict.Verified);

    private async Task ReceiveAsync(HttpContext context, ReceiverHost server)
    {
        var arrived = DateTimeOffset.UtcNow;
        byte[] body = await ReadBodyAsync(context.Request, context.RequestAborted);
        var headers = context.Request.Headers.ToDictionary(h => h.Key.ToLowerInvariant(), h => h.Value.ToString(), StringComparer.Ordinal);
        string? id = headers.GetValueOrDefault(StandardWebhookVerifier.IdHeader);
        var verdict = verifier.Verify(id, headers.GetValueOrDefault(StandardWebhookVerifier.TimestampHeader),
            headers.GetValueOrDefault(StandardWebhookVerifier.SignatureHeader), body, arrived);

        var scripted = Script.Take();
        int? status = scripted switch { null => verdict.Status, { Hang: true } => null, _ => (int)scripted.Status };
        if (keepDeliveries)
        {
            deliveries.Enqueue(new WebhookDelivery(id, context.Request.Path, headers, body, verdict, status, arrived) { AnswerDelay = scripted?.Delay });
        }

        Receipts.Record(id, verdict.Verified && status is >= 200 and < 300);

        if (scripted is not null)
        {
            await server.WriteScriptedAsync(context, scripted, body: null, "text/plain");
            return;
        }

        context.Response.StatusCode = verdict.Status;
        if (!verdict.Verified)
        {
            await context.Response.WriteAsync(verdict.Reason, context.RequestAborted);
        }
    }

    private static async Task<byte[]> ReadBodyAsync(HttpRequest request, CancellationToken ct)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer, ct);
        if (buffer.Length > MaxBodyBytes)
        {
            throw new Microsoft.AspNetCore.Http.BadHttpRequestException($"webhook body over {MaxBodyBytes} bytes", StatusCodes.Status413PayloadTooLarge);
        }

        return buffer.ToArray();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        Certificate.Dispose();
    }
}
