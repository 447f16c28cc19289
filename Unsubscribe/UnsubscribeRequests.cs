using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Unsubscribe;
using Notifications.Unsubscribe.Pages;

namespace Notifications.Unsubscribe;

/// <summary>
/// What <c>/unsubscribe?token=…</c> answers. GET: the confirmation page with a one-button form, and nothing changes (link
/// scanners fetch URLs). POST with the body <c>List-Unsubscribe=One-Click</c> (a mail client's one-click, RFC 8058 §3.2,
/// or the page's button): for a token of a mail with a category, the address's subscribers opt out of that category by
/// email (docs/preferences.md, "By the link"); else, or when nobody holds the address, an <c>unsubscribed</c> entry for the
/// token's address (bulk mail only). Then the done page, saying which; the same on a repeat. No cookie or antiforgery
/// token: a mail client's POST has none by design, the token authorises it.
/// A token that is not genuine or has expired gets a page saying so and changes nothing; each outcome is counted.
/// </summary>
internal sealed class UnsubscribeRequests(
    UnsubscribeToken tokens, LegacyUnsubscribeToken legacy, ISuppressionStore store, IPreferenceStore preferences, UnsubscribePages pages,
    UnsubscribeMetrics metrics, ILogger<UnsubscribeRequests> logger)
{
    public const int MaxBodyBytes = 8 * 1024;
    private static readonly FormOptions Form = new()
    {
        ValueCountLimit = 16, KeyLengthLimit = 64, ValueLengthLimit = 1024, MultipartBodyLengthLimit = MaxBodyBytes, BufferBodyLengthLimit = MaxBodyBytes,
    };

    public Task ShowAsync(HttpContext context)
    {
        var (check, refusal) = Read(context);
        if (refusal is not null)
        {
            return RefuseAsync(context, refusal);
        }

        metrics.Count("shown");
        return pages.WriteAsync<ConfirmPage>(context, StatusCodes.Status200OK, new()
        {
            [nameof(ConfirmPage.Address)] = UnsubscribePages.Mask(check.Payload!.Address),
            [nameof(ConfirmPage.Category)] = check.Payload.Category,
        });
    }

    public async Task UnsubscribeAsync(HttpContext context)
    {
        if (!await IsOneClickAsync(context))
        {
            await RefuseAsync(context, UnsubscribeRefusal.NotOneClick);
            return;
        }

        var (check, refusal) = Read(context);
        if (refusal is not null)
        {
            await RefuseAsync(context, refusal);
            return;
        }

        var payload = check.Payload!;
        string? optedOutOf;
        try
        {
            optedOutOf = await OptOutAsync(payload, context.RequestAborted);
            if (optedOutOf is null)
            {
                bool added = await store.AddAsync(SuppressionKeys.ForRecipient(payload.Address), SuppressionReasons.Unsubscribed, SuppressionReasons.BulkScope,
                    $"unsubscribe link (RFC 8058) of notification {payload.NotificationId}", context.RequestAborted);
                UnsubscribeLog.Unsubscribed(logger, payload.NotificationId, added);
            }
        }
        catch (Exception ex) when (!context.RequestAborted.IsCancellationRequested)
        {
            UnsubscribeLog.NotRecorded(logger, payload.NotificationId, ex);
            await RefuseAsync(context, UnsubscribeRefusal.NotRecorded);
            return;
        }

        metrics.Count(optedOutOf is null ? "unsubscribed" : "opted_out");
        await pages.WriteAsync<DonePage>(context, StatusCodes.Status200OK, new()
        {
            [nameof(DonePage.Address)] = UnsubscribePages.Mask(payload.Address),
            [nameof(DonePage.Category)] = optedOutOf,
        });
    }

    // The link of a mail with a category: the address's subscribers opt out of it by email. The category, or null when the
    // token has none or nobody holds the address (or the category is critical or unknown): the bulk suppression entry then.
    private async Task<string?> OptOutAsync(UnsubscribePayload payload, CancellationToken cancellationToken)
    {
        if (payload.Category is not { } category || AudienceRules.CategoryName(category) is not null)
        {
            return null;
        }

        int subscribers = await preferences.OptOutByLinkAsync(AudienceRules.Email, SuppressionKeys.ForRecipient(payload.Address), category, cancellationToken);
        UnsubscribeLog.OptedOut(logger, payload.NotificationId, category, subscribers);
        return subscribers > 0 ? category : null;
    }

    // The token of the request's query, and why it is not acted on (null when valid). A token of the first format is
    // read only while the old key is configured (the deprecation window); after it, such a link gets its own page.
    private (UnsubscribeTokenCheck Check, UnsubscribeRefusal? Refusal) Read(HttpContext context)
    {
        string? token = context.Request.Query["token"];
        if (LegacyUnsubscribeToken.IsLegacy(token) && !legacy.Enabled)
        {
            return (UnsubscribeTokenCheck.Malformed, UnsubscribeRefusal.Legacy);
        }

        var check = LegacyUnsubscribeToken.IsLegacy(token) ? legacy.Verify(token!) : tokens.Read(token);
        return (check, check.Outcome == UnsubscribeTokenOutcome.Valid ? null : UnsubscribeRefusal.For(check.Outcome));
    }

    // RFC 8058 §3.2: the POST body is the form List-Unsubscribe=One-Click, url-encoded or multipart; the page's form sends the same.
    private static async Task<bool> IsOneClickAsync(HttpContext context)
    {
        var request = context.Request;
        if (request.ContentLength is > MaxBodyBytes || !request.HasFormContentType)
        {
            return false;
        }

        try
        {
            var form = await request.ReadFormAsync(Form, context.RequestAborted);
            return form["List-Unsubscribe"] == "One-Click";
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException or BadHttpRequestException)
        {
            return false;
        }
    }

    private Task RefuseAsync(HttpContext context, UnsubscribeRefusal refusal)
    {
        metrics.Count(refusal.Outcome);
        UnsubscribeLog.Refused(logger, context.Request.Method, refusal.Status, refusal.Outcome, context.Connection.RemoteIpAddress?.ToString());
        return pages.WriteAsync<RefusedPage>(context, refusal.Status, new()
        {
            [nameof(RefusedPage.Title)] = refusal.Title,
            [nameof(RefusedPage.Message)] = refusal.Message,
        });
    }
}
