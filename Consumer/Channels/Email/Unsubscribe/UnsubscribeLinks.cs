using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>
/// The List-Unsubscribe headers of a bulk-lane notification (RFC 2369, RFC 8058 §3.1): a <c>mailto:</c> and/or an https
/// URL carrying a signed token, and, with the https URL, <c>List-Unsubscribe-Post: List-Unsubscribe=One-Click</c>.
/// Transactional mail (urgent, normal) gets none: it is not something one unsubscribes from.
/// </summary>
internal sealed class UnsubscribeLinks
{
    public const string Header = "List-Unsubscribe";
    public const string PostHeader = "List-Unsubscribe-Post";
    public const string OneClick = "List-Unsubscribe=One-Click";

    private readonly UnsubscribeOptions _options;
    private readonly UnsubscribeToken? _token;

    public UnsubscribeLinks(IOptions<UnsubscribeOptions> options, ILogger<UnsubscribeLinks> logger)
    {
        _options = options.Value;
        if (!_options.Enabled)
        {
            ConsumerLog.UnsubscribeHeadersOff(logger);
        }

        _token = _options.UrlTemplate is { Length: > 0 } ? new UnsubscribeToken(UnsubscribeOptionsValidator.ReadKey(_options)) : null;
    }

    /// <summary>The token checker of the endpoint, or null when no URL is configured (the endpoint then refuses every request).</summary>
    public UnsubscribeToken? Token => _token;

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

        if (_token is not null)
        {
            string token = _token.Create(message.Id, message.Recipient!);
            uris.Add($"<{_options.UrlTemplate!.Replace(UnsubscribeOptions.TokenPlaceholder, token, StringComparison.Ordinal)}>");
        }

        var headers = new List<KeyValuePair<string, string>>(2) { new(Header, string.Join(", ", uris)) };
        if (_token is not null)
        {
            headers.Add(new(PostHeader, OneClick));
        }

        return headers;
    }
}
