using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>A row's own From display name, checked at enqueue by the consumer's rule (<see cref="FromNameRules"/>).</summary>
public sealed partial record NewNotification
{
    /// <summary>The longest <see cref="FromName"/>, in characters (code points).</summary>
    public const int MaxFromNameLength = FromNameRules.MaxLength;

    /// <summary>
    /// Optional: the From header's display name for this mail (<c>Acme Billing</c>, <c>Zoë Support</c>; one line, at most
    /// <see cref="MaxFromNameLength"/> characters), RFC 2047-encoded when it is not ASCII. The address stays the consumer's
    /// <c>Smtp:From</c>: DKIM signs and SPF authorizes that domain, so a row may vary the name only. Null: Smtp:From's name.
    /// </summary>
    public string? FromName { get; init; }

    /// <exception cref="ArgumentException">The name is blank, too long or not one line; the parameter name is <c>FromName</c>.</exception>
    internal void CheckFromName()
    {
        if (FromNameRules.FromName(FromName) is { } error)
        {
            throw new ArgumentException($"{nameof(FromName)} refused, {error}.", nameof(FromName));
        }
    }
}
