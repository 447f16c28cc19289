using MailKit.Security;

namespace Notifications.Consumer.Channels.Email;

/// <summary>Maps <see cref="SmtpSecurity"/> onto MailKit's <see cref="SecureSocketOptions"/>.</summary>
internal static class SmtpSecurityExtensions
{
    public static SecureSocketOptions ToSecureSocketOptions(this SmtpSecurity security) => security switch
    {
        SmtpSecurity.None => SecureSocketOptions.None,
        SmtpSecurity.StartTlsWhenAvailable => SecureSocketOptions.StartTlsWhenAvailable,
        SmtpSecurity.StartTls => SecureSocketOptions.StartTls,
        SmtpSecurity.SslOnConnect => SecureSocketOptions.SslOnConnect,
        _ => throw new ArgumentOutOfRangeException(nameof(security), security, "Unknown Smtp:Security value."),
    };
}
