using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;
using Notifications.Consumer.Suppression;

namespace Notifications.Consumer.Unsubscribe;

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

        if (await RefusalAsync(context) is { } refusal)
        {
            ConsumerLog.UnsubscribeRefused(logger, refusal.Status, refusal.Reason, context.Connection.RemoteIpAddress?.ToString());
            await ReplyAsync(context, refusal.Status, refusal.Reason);
            return;
        }

        var token = links.Token!.Verify(request.Query["token"]);
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

    // Why the request is refused (status and reason), or null when it is a valid one-click unsubscribe.
    private async Task<(int Status, string Reason)?> RefusalAsync(HttpContext context)
    {
        var request = context.Request;
        if (links.Token is null)
        {
            return (StatusCodes.Status404NotFound, "one-click unsubscribe is not configured (Unsubscribe:UrlTemplate)");
        }

        if (request.ContentLength is > MaxBodyBytes || !request.HasFormContentType)
        {
            return (StatusCodes.Status400BadRequest, "the body must be a form (application/x-www-form-urlencoded or multipart/form-data) of at most 8 KiB");
        }

        IFormCollection form;
        try
        {
            form = await request.ReadFormAsync(Form, context.RequestAborted);
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException or BadHttpRequestException)
        {
            return (StatusCodes.Status400BadRequest, $"unreadable form: {ex.Message}");
        }

        if (form["List-Unsubscribe"] != "One-Click")
        {
            return (StatusCodes.Status400BadRequest, "the body must be List-Unsubscribe=One-Click (RFC 8058)");
        }

        return links.Token.Verify(request.Query["token"]).Outcome switch
        {
            UnsubscribeTokenOutcome.Valid => null,
            UnsubscribeTokenOutcome.Forged => (StatusCodes.Status403Forbidden, "the token's signature is not valid"),
            _ => (StatusCodes.Status400BadRequest, "missing or malformed token"),
        };
    }

    private static async Task ReplyAsync(HttpContext context, int status, string text)
    {
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/plain; charset=utf-8";
        await context.Response.WriteAsync(text + "\n", context.RequestAborted);
    }
}
