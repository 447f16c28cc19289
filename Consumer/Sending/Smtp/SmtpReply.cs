namespace Notifications.Consumer.Sending.Smtp;

/// <summary>
/// A server reply (RFC 5321 4.2). <see cref="Text"/> holds each line's text after the code, joined by
/// LF; it is kept only for negative replies and when asked for (EHLO), to spare the hot path a string.
/// </summary>
internal readonly record struct SmtpReply(int Code, string Text)
{
    public bool IsPositive => Code is >= 200 and < 400;

    /// <summary>421: the server is closing the connection, whatever command it answers.</summary>
    public bool IsServiceClosing => Code == 421;

    public SmtpFailureKind FailureKind => Code >= 500 ? SmtpFailureKind.Permanent : SmtpFailureKind.Transient;

    /// <summary>The RFC 3463 enhanced status code ("4.3.0") that starts the text, if any.</summary>
    public string? EnhancedStatusCode
    {
        get
        {
            int end = Text.AsSpan().IndexOfAny(' ', '\n');
            string first = end < 0 ? Text : Text[..end];
            return IsEnhancedStatusCode(first) ? first : null;
        }
    }

    public override string ToString() => Text.Length == 0 ? $"{Code}" : $"{Code} {Text.Replace('\n', ' ')}";

    private bool IsEnhancedStatusCode(string candidate)
    {
        // class "." subject "." detail, with the class matching the reply's first digit.
        string[] parts = candidate.Split('.');
        return parts.Length == 3
            && parts[0].Length == 1 && parts[0][0] == (char)('0' + (Code / 100))
            && parts[1].Length is >= 1 and <= 3 && parts[1].All(char.IsAsciiDigit)
            && parts[2].Length is >= 1 and <= 3 && parts[2].All(char.IsAsciiDigit);
    }
}
