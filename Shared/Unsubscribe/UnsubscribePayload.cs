namespace Notifications.Shared.Unsubscribe;

/// <summary>
/// What an unsubscribe token carries, encrypted (<see cref="UnsubscribeToken"/>): the notification and the recipient it was
/// made for and when. Nothing of it is readable without the key. New fields are optional ones (readers ignore what they
/// do not know and give what a token lacks its default), so tokens already in mail keep working when one is added.
/// </summary>
/// <param name="NotificationId">The notification whose mail carried the link.</param>
/// <param name="Address">The recipient, lower-cased: the suppression key an unsubscribe adds.</param>
/// <param name="IssuedAt">When the token was made (whole seconds): a token older than <see cref="UnsubscribeKeyOptions.TokenLifetime"/> is refused.</param>
public sealed record UnsubscribePayload(long NotificationId, string Address, DateTimeOffset IssuedAt)
{
    /// <summary>
    /// The mail's category (docs/preferences.md), if it had one: the link then opts the address's subscribers out of that
    /// category by email; without one (or when nobody holds the address) it unsubscribes the address from all bulk mail.
    /// </summary>
    public string? Category { get; init; }
}
