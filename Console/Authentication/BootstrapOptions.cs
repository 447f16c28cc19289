namespace Notifications.OperatorConsole.Authentication;

/// <summary>
/// The local bootstrap sign-in (section <c>Console:Bootstrap</c>): one operator account for a demo or a first start before an
/// identity provider is wired, its password in a file <c>scripts/setup</c> generates (never a default password).
/// </summary>
internal sealed class BootstrapOptions
{
    public const string SectionName = "Console:Bootstrap";

    /// <summary>The shortest password accepted from the file: a generated one is 48 hex characters.</summary>
    public const int MinimumPasswordLength = 16;

    /// <summary>The account's user name.</summary>
    public string User { get; set; } = "operator";

    /// <summary>The file holding the password (one line). Unset: no bootstrap sign-in.</summary>
    public string? PasswordFile { get; set; }

    /// <summary>Whether the bootstrap sign-in is configured.</summary>
    public bool Enabled => PasswordFile is { Length: > 0 };
}
