namespace Notifications.IntegrationTests.WebConsole;

/// <summary>Search text of the shapes a page must answer with a page: SQL, a wildcard, NUL, control characters; null stands for 10 KB.</summary>
public static class BadSearchText
{
    public static TheoryData<string?> Cases() => new() { "' OR 1=1 --", "%", "a\u0000b", "\u0007\u001b[2J", null };

    /// <summary>The text a case stands for.</summary>
    public static string Of(string? text) => text ?? new string('x', 10_000);
}
