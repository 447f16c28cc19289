using System.Text;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// Checks a notification's Reply-To, Cc, Bcc and custom headers as far as is cheap without a mail parser, and
/// writes the headers as the JSON object the <c>headers</c> column holds. Addresses are parsed by the consumer
/// (MimeKit), which dead-letters a list that does not read, with the reason.
/// </summary>
internal static class MessageHeaderValues
{
    /// <summary>The <c>headers</c> column's value; throws <see cref="ArgumentException"/> for what the consumer would refuse.</summary>
    public static string? Of(NewNotification notification)
    {
        CheckList(notification.ReplyTo, "ReplyTo", 998, nameof(notification));
        CheckList(notification.Cc, "Cc", 4000, nameof(notification));
        CheckList(notification.Bcc, "Bcc", 4000, nameof(notification));
        if (notification.Headers is not { } headers)
        {
            return null;
        }

        if (headers.Count > CustomHeaderRules.MaxHeaders)
        {
            throw new ArgumentException($"{headers.Count} custom headers; at most {CustomHeaderRules.MaxHeaders} are sent.", nameof(notification));
        }

        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            foreach ((string name, string value) in headers)
            {
                string? error = CustomHeaderRules.Check(name, value) ?? (names.Add(name) ? null : $"'{name}' appears twice (header names ignore case)");
                if (error is not null)
                {
                    throw new ArgumentException($"Custom header refused: {error}.", nameof(notification));
                }

                writer.WriteString(name, value);
            }

            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    // The column's length and its one-line CHECK, said before the database says it less clearly.
    private static void CheckList(string? list, string property, int maxLength, string paramName)
    {
        if (list is null)
        {
            return;
        }

        if (list.AsSpan().ContainsAny('\r', '\n'))
        {
            throw new ArgumentException($"{property} contains CR or LF (header injection).", paramName);
        }

        if (list.Length > maxLength)
        {
            throw new ArgumentException($"{property} is {list.Length} characters long; the column holds {maxLength}.", paramName);
        }
    }
}
