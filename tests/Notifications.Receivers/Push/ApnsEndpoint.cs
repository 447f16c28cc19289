using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// APNs <c>POST /3/device/{token}</c> over HTTP/2 only: provider token (403), headers and device token (400), payload
/// (400/413), a provider token changed on its connection within 20 minutes of the last change (429
/// TooManyProviderTokenUpdates, <see cref="ApnsTokenUpdates"/>), a device the test marked unregistered (410
/// <c>{"reason":"Unregistered","timestamp":ms}</c>); success is 200 with an empty body. Every answer carries <c>apns-id</c>: the request's, or a new UUID.
/// </summary>
internal sealed class ApnsEndpoint(PushTrust trust, PushLog log, AnswerScript script)
{
    private readonly ApnsProviderTokenValidator tokens = new(trust);
    private readonly ApnsTokenUpdates updates = new();

    public async Task HandleAsync(HttpContext context, ReceiverHost host, string deviceToken)
    {
        if (!HttpProtocol.IsHttp2(context.Request.Protocol))
        {
            // APNs speaks HTTP/2 only; its own listener refuses HTTP/1.1 at ALPN, this covers the shared listener.
            context.Abort();
            return;
        }

        var arrived = DateTimeOffset.UtcNow;
        byte[] body = await PushLog.ReadBodyAsync(context.Request, context.RequestAborted);
        var headers = context.Request.Headers;
        string apnsId = headers.TryGetValue("apns-id", out var given) && Guid.TryParseExact(given, "D", out _) ? given.ToString() : Guid.NewGuid().ToString("D");
        var (status, reason, notificationId) = await JudgeAsync(context.Connection.Id, headers, deviceToken, body, arrived);
        notificationId ??= headers["apns-collapse-id"].FirstOrDefault() ?? apnsId;
        var verdict = new PushVerdict(status, reason, Body(status, reason, arrived));

        var scripted = script.Take();
        int? answered = scripted switch { null => status, { Hang: true } => null, _ => (int)scripted.Status };
        log.Record(new PushRequest("apns", deviceToken, notificationId, context.Request.Protocol,
            PushLog.HeadersOf(context.Request), body, verdict, answered, arrived));

        context.Response.Headers["apns-id"] = apnsId;
        if (scripted is not null)
        {
            int scriptedStatus = (int)scripted.Status;
            await host.WriteScriptedAsync(context, scripted, Body(scriptedStatus, ReasonFor(scriptedStatus), arrived), "application/json");
            return;
        }

        context.Response.StatusCode = status;
        if (verdict.Body.Length > 0)
        {
            context.Response.ContentType = "application/json";
            await context.Response.WriteAsync(verdict.Body, context.RequestAborted);
        }
    }

    private async Task<(int Status, string Reason, string? NotificationId)> JudgeAsync(
        string connectionId, IHeaderDictionary headers, string deviceToken, byte[] body, DateTimeOffset now)
    {
        string authorization = headers.Authorization.ToString();
        if (await tokens.CheckAsync(authorization, now) is { } tokenReason)
        {
            return (403, tokenReason, null);
        }

        if (!updates.TryUse(connectionId, authorization, now))
        {
            return (429, "TooManyProviderTokenUpdates", null);
        }

        if (ApnsRequestValidator.CheckHeaders(headers, deviceToken) is { } headerRefusal)
        {
            return (headerRefusal.Status, headerRefusal.Reason, null);
        }

        if (ApnsRequestValidator.CheckPayload(body, out string? notificationId) is { } payloadRefusal)
        {
            return (payloadRefusal.Status, payloadRefusal.Reason, notificationId);
        }

        return log.IsUnregistered(deviceToken) ? (410, "Unregistered", notificationId) : (200, "accepted", notificationId);
    }

    private static string Body(int status, string reason, DateTimeOffset now) => status switch
    {
        200 => "",
        410 => JsonSerializer.Serialize(new { reason, timestamp = now.ToUnixTimeMilliseconds() }),
        _ => JsonSerializer.Serialize(new { reason }),
    };

    /// <summary>The reason APNs gives with a status a test scripted.</summary>
    private static string ReasonFor(int status) => status switch
    {
        200 => "accepted",
        400 => "BadDeviceToken",
        403 => "InvalidProviderToken",
        410 => "Unregistered",
        413 => "PayloadTooLarge",
        429 => "TooManyRequests",
        503 => "ServiceUnavailable",
        _ => "InternalServerError",
    };
}
