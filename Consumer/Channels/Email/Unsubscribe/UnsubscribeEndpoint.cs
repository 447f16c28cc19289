using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;
using Notifications.Consumer.Suppression;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>
/// <c>POST /unsubscribe?token=…</c> on the consumer's operations port: the one-click unsubscribe of RFC 8058 §3.2. The body
/// must be the form <c>List-Unsubscribe=One-Click</c>; the token must carry the key's signature. Then the address gets an
/// <c>unsubscribed</c> entry (bulk mail only) and the answer is 200, on a repeat too. A GET never unsubscribes (a link
/// scanner fetches URLs): 405. Bad request 400, forged token 403, database down 503 (the mailbox provider tries again).
/// </summary>
internal sealed class UnsubscribeEndpoint(UnsubscribeLinks links, SuppressionList suppression, ILogger<UnsubscribeEndpoint> logger)
{
    public const string Path = "/unsubscribe";
    private const int MaxBodyBytes = 8 * 1024;
    private static readonly FormOptions Form = new() { ValueCountLimit = 16, KeyLengthLimit = 64, ValueLengthLimit = 1024, MultipartBodyLengthLimit = MaxBodyBytes };

    public async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        if (!HttpMethods.IsPost(request.Method))
        {
            context.Response.Headers.Allow = "POST";
            await ReplyAsync(context, StatusCodes.Status405MethodNotAllowed, "use POST with the body List-Unsubscribe=One-Click (RFC 8058); a GET unsubscribes nobody");
            return;
        }

        var (token, refusal) = await CheckAsync(context);
        if (refusal is { } refused)
        {
            ConsumerLog.UnsubscribeRefused(logger, refused.Status, refused.Reason, context.Connection.RemoteIpAddress?.ToString());
            await ReplyAsync(context, refused.Status, refused.Reason);
            return;
        }

        try
        {
            bool added = await suppression.AddUnsubscribeAsync(token.Address, $"one-click unsubscribe (RFC 8058) from notification {token.NotificationId}", context.RequestAborted);
            ConsumerLog.Unsubscribed(logger, token.NotificationId, added);
            await ReplyAsync(context, StatusCodes.Status200OK, "unsubscribed");
        }
        catch (Exception ex) when (!context.RequestAborted.IsCancellationRequested)
        {
            ConsumerLog.UnsubscribeFailed(logger, token.NotificationId, ex);
            await ReplyAsync(context, StatusCodes.Status503ServiceUnavailable, "not recorded, try again later");
        }
    }

    // The token's check, and why the request is refused (status and reason), or null when it is a valid one-click unsubscribe.
    private async Task<(UnsubscribeTokenCheck Token, (int Status, string Reason)? Refusal)> CheckAsync(HttpContext context)
    {
        var none = UnsubscribeTokenCheck.Malformed;
        var request = context.Request;
        if (links.Token is null)
        {
            return (none, (StatusCodes.Status404NotFound, "one-click unsubscribe is not configured (Unsubscribe:UrlTemplate)"));
        }

        if (request.ContentLength is > MaxBodyBytes || !request.HasFormContentType)
        {
            return (none, (StatusCodes.Status400BadRequest, "the body must be a form (application/x-www-form-urlencoded or multipart/form-data) of at most 8 KiB"));
        }

        IFormCollection form;
        try
        {
            form = await request.ReadFormAsync(Form, context.RequestAborted);
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException or BadHttpRequestException)
        {
            return (none, (StatusCodes.Status400BadRequest, $"unreadable form: {ex.Message}"));
        }

        if (form["List-Unsubscribe"] != "One-Click")
        {
            return (none, (StatusCodes.Status400BadRequest, "the body must be List-Unsubscribe=One-Click (RFC 8058)"));
        }

        var token = links.Token.Verify(request.Query["token"]);
        return (token, token.Outcome switch
        {
            UnsubscribeTokenOutcome.Valid => null,
            UnsubscribeTokenOutcome.Forged => (StatusCodes.Status403Forbidden, "the token's signature is not valid"),
            _ => (StatusCodes.Status400BadRequest, "missing or malformed token"),
        });
    }

    private static async Task ReplyAsync(HttpContext context, int status, string text)
    {
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/plain; charset=utf-8";
        await context.Response.WriteAsync(text + "\n", context.RequestAborted);
    }
}
