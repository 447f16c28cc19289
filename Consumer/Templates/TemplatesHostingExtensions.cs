using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Templates;

namespace Notifications.Consumer.Templates;

/// <summary>DI wiring of template rendering in the consumer.</summary>
internal static class TemplatesHostingExtensions
{
    public static IServiceCollection AddTemplateRendering(this IServiceCollection services)
    {
        services.AddOptions<TemplatesOptions>().BindConfiguration(TemplatesOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => sp.GetRequiredService<IOptions<TemplatesOptions>>().Value);
        services.AddTemplates();
        services.AddSingleton<TemplateCache>();
        services.AddSingleton<NotificationRenderer>();
        return services;
    }
}
