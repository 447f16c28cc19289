using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;
using Notifications.Shared.Unsubscribe;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>
/// The List-Unsubscribe headers of a bulk-lane notification (RFC 2369, RFC 8058 §3.1): a <c>mailto:</c> and/or an https
/// URL carrying an opaque token (<see cref="UnsubscribeToken"/>: the address and the notification encrypted), and, with
/// the https URL, <c>List-Unsubscribe-Post: List-Unsubscribe=One-Click</c>. The unsubscribe process answers the URL. The
/// token carries the mail's category, if any: then the link opts out of that category, not of all bulk mail.
/// Transactional mail (urgent, normal) gets none: it is not something one unsubscribes from.
/// </summary>
internal sealed class UnsubscribeLinks
{
    public const string Header = "List-Unsubscribe";
    public const string PostHeader = "List-Unsubscribe-Post";
    public const string OneClick = "List-Unsubscribe=One-Click";

    private readonly UnsubscribeOptions _options;
    private readonly UnsubscribeToken _tokens;
    private readonly TimeProvider _time;
    private readonly bool _oneClick;

    public UnsubscribeLinks(IOptions<UnsubscribeOptions> options, UnsubscribeToken tokens, TimeProvider time, ILogger<UnsubscribeLinks> logger)
    {
        _options = options.Value;
        _tokens = tokens;
        _time = time;
        _oneClick = _options.UrlTemplate is { Length: > 0 };
        if (!_options.Enabled)
        {
            ConsumerLog.UnsubscribeHeadersOff(logger);
        }
    }

    public bool Enabled => _options.Enabled;

    /// <summary>The headers to add to <paramref name="message"/>, or null for none.</summary>
    public IReadOnlyList<KeyValuePair<string, string>>? HeadersFor(NotificationMessage message)
    {
        if (!message.IsBulk || !_options.Enabled)
        {
            return null;
        }

        var uris = new List<string>(2);
        if (_options.Mailto is { Length: > 0 } mailto)
        {
            uris.Add($"<mailto:{mailto}?subject=unsubscribe>");
        }

        if (_oneClick)
        {
            // A mail with a category: the link opts the address's subscribers out of it (docs/preferences.md, "By the link").
            string token = _tokens.Create(new UnsubscribePayload(message.Id, message.Recipient!, _time.GetUtcNow()) { Category = message.Category });
            uris.Add($"<{_options.UrlTemplate!.Replace(UnsubscribeOptions.TokenPlaceholder, token, StringComparison.Ordinal)}>");
        }

        var headers = new List<KeyValuePair<string, string>>(2) { new(Header, string.Join(", ", uris)) };
        if (_oneClick)
        {
            headers.Add(new(PostHeader, OneClick));
        }

        return headers;
    }
}
