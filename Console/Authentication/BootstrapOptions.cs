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

    /// <summary>
    /// The password itself: in the stacks a Docker secret mounted as <c>/run/secrets/Console__Bootstrap__Password</c> (read as
    /// configuration, as the gateway's token key). Wins over <see cref="PasswordFile"/>.
    /// </summary>
    public string? Password { get; set; }

    /// <summary>The file holding the password (one line; scripts/setup's <c>.run/secrets/console_operator</c>).</summary>
    public string? PasswordFile { get; set; }

    /// <summary>Whether the bootstrap sign-in is configured (neither set: none).</summary>
    public bool Enabled => Password is { Length: > 0 } || PasswordFile is { Length: > 0 };
}
