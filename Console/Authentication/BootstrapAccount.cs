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
            _password = Hash(Read(o.PasswordFile!));
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

    /// <summary>What is wrong with the password file, or null.</summary>
    public static string? PasswordProblem(string file)
    {
        try
        {
            return Read(file).Length >= BootstrapOptions.MinimumPasswordLength
                ? null
                : $"'{file}' must hold a password of at least {BootstrapOptions.MinimumPasswordLength} characters (scripts/setup generates one)";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"'{file}' cannot be read: {ex.Message}";
        }
    }

    // The file's one line, without the newline an editor or `echo` leaves.
    private static string Read(string file) => File.ReadAllText(file).Trim();

    private static byte[] Hash(string value) => SHA256.HashData(Encoding.UTF8.GetBytes(value));
}
