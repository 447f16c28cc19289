using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;

namespace Notifications.OperatorConsole.Authentication;

/// <summary>
/// The bootstrap operator account: its user name and the password read from <see cref="BootstrapOptions.PasswordFile"/> at start.
/// A check compares hashes of equal length in constant time, so neither the length nor the first differing character leaks
/// through the answer's timing.
/// </summary>
internal sealed class BootstrapAccount
{
    private readonly byte[]? _user;
    private readonly byte[]? _password;

    public BootstrapAccount(IOptions<BootstrapOptions> options)
    {
        var o = options.Value;
        if (o.Enabled)
        {
            _user = Hash(o.User);
            _password = Hash(PasswordOf(o));
        }
    }

    /// <summary>Whether the bootstrap sign-in is on.</summary>
    public bool Enabled => _password is not null;

    /// <summary>Whether <paramref name="user"/> and <paramref name="password"/> are the account's.</summary>
    public bool Check(string? user, string? password)
    {
        if (_user is null || _password is null)
        {
            return false;
        }

        // Both compared, always: '&' not '&&', so a wrong user name costs the same as a wrong password.
        return CryptographicOperations.FixedTimeEquals(_user, Hash(user ?? "")) & CryptographicOperations.FixedTimeEquals(_password, Hash(password ?? ""));
    }

    /// <summary>What is wrong with the configured password, or null.</summary>
    public static string? PasswordProblem(BootstrapOptions options)
    {
        string source = options.Password is { Length: > 0 } ? "Console:Bootstrap:Password" : $"Console:Bootstrap:PasswordFile '{options.PasswordFile}'";
        try
        {
            return PasswordOf(options).Length >= BootstrapOptions.MinimumPasswordLength
                ? null
                : $"{source} must hold a password of at least {BootstrapOptions.MinimumPasswordLength} characters (scripts/setup generates one)";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"{source} cannot be read: {ex.Message}";
        }
    }

    // The value, or the file's one line; without the newline an editor, `echo` or a secret file leaves.
    private static string PasswordOf(BootstrapOptions options) =>
        (options.Password is { Length: > 0 } password ? password : File.ReadAllText(options.PasswordFile!)).Trim();

    private static byte[] Hash(string value) => SHA256.HashData(Encoding.UTF8.GetBytes(value));
}
