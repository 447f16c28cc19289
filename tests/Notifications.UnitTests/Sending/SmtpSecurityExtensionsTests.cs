using MailKit.Security;
using Notifications.Consumer.Channels.Email;

namespace Notifications.UnitTests.Sending;

public sealed class SmtpSecurityExtensionsTests
{
    [Fact]
    public void ToSecureSocketOptions_EveryMode_MailKitsNamesake()
    {
        Assert.Equal(SecureSocketOptions.None, SmtpSecurity.None.ToSecureSocketOptions());
        Assert.Equal(SecureSocketOptions.StartTlsWhenAvailable, SmtpSecurity.StartTlsWhenAvailable.ToSecureSocketOptions());
        Assert.Equal(SecureSocketOptions.StartTls, SmtpSecurity.StartTls.ToSecureSocketOptions());
        Assert.Equal(SecureSocketOptions.SslOnConnect, SmtpSecurity.SslOnConnect.ToSecureSocketOptions());
        Assert.Throws<ArgumentOutOfRangeException>(() => ((SmtpSecurity)42).ToSecureSocketOptions());
    }
}
