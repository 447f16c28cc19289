using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// An e-mail notification's recipient, subject and body, checked by the consumer's own rules (<see cref="EmailRules"/>,
/// compiled into this package), so what the consumer would dead-letter is refused at enqueue instead.
/// </summary>
internal static class EmailFields
{
    /// <exception cref="ArgumentException">A field the consumer would refuse; the parameter name is the field's.</exception>
    public static void Check(NewNotification notification)
    {
        if (notification.Channel != "email")
        {
            return;
        }

        Refuse(EmailRules.Recipient(notification.Recipient), nameof(NewNotification.Recipient));
        if (notification.TemplateName is not null)
        {
            // The consumer renders the subject and body at send time and checks them then.
            return;
        }

        Refuse(EmailRules.Subject(notification.Subject), nameof(NewNotification.Subject));
        Refuse(EmailRules.Body(notification.Body), nameof(NewNotification.Body));
    }

    private static void Refuse(string? error, string field)
    {
        if (error is not null)
        {
            throw new ArgumentException($"{field} refused, {error}.", field);
        }
    }
}
