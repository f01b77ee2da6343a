import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * Bottlerocket's bootstrap commands and bootstrap containers in literal user data (lib/nodes/user-data-rules.ts
 * bottlerocketBootstrapProblems). Karpenter's BootstrapCommand struct holds any string (mode) and any array of strings
 * (commands), and it passes settings.bootstrap-containers on as written; Bottlerocket's settings model then refuses
 * at boot a name that is no Identifier, a mode other than off / once / always (as written), a command whose first
 * word is not "apiclient", a bootstrap container field of another type, a source that is no URL or user-data that is
 * no base64 (bottlerocket-settings-sdk modeled-types shared.rs), and early-boot-config's failure stops the boot.
 */

const br = (userData: string) => ({ amiSelectorTerms: [{ alias: "bottlerocket@latest" }], userData });
const command = (fields: string, name = "setup") =>
  `[settings.bootstrap-commands.${name}]\ncommands = [["apiclient", "set", "motd=hi"]]\n${fields}\n`;
const container = (fields: string, name = "setup") =>
  `[settings.bootstrap-containers.${name}]\nsource = "public.ecr.aws/my-org/setup:1.0"\n${fields}\n`;

describe("settings.bootstrap-commands: what Bottlerocket's model refuses at boot", () => {
  test.each([
    ['mode = "Once"', "settings.bootstrap-commands.setup.mode", '"Once"'],
    ['mode = "ALWAYS"', "settings.bootstrap-commands.setup.mode", '"ALWAYS"'],
    ['mode = "sometimes"', "settings.bootstrap-commands.setup.mode", '"sometimes"'],
    ['mode = ""', "settings.bootstrap-commands.setup.mode", '""'],
    // Karpenter matches the field case-insensitively and writes it back as mode
    ['Mode = "on"', "settings.bootstrap-commands.setup.Mode", '"on"'],
  ])("%s is refused", (line, path, got) => {
    const e = rejection("EC2NodeClass", br(command(line)), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line 3: ${line}`);
    expect(e.message).toContain(
      `${path} as one of "off", "once", "always", as written (Bottlerocket's BootstrapMode), got ${got}`,
    );
    expect(e.message).toContain("Bottlerocket itself refuses the settings at boot");
    expect(e.message).toContain("RequiredBy=preconfigured.target");
    expect(e.message).toContain(
      "bottlerocket-settings-sdk@f2ca5366 bottlerocket-settings-models/modeled-types/src/shared.rs",
    );
    expect(e.message).toContain("bottlerocket-core-kit@a10182f9 sources/bootstrap-commands/src/main.rs:57-77");
  });

  test.each([
    ["setup_1", '"setup_1"'],
    ['"set up"', '"set up"'],
    ['"étape"', '"étape"'],
    ["a".repeat(77), `"${"a".repeat(77)}"`],
  ])("a command named %s is refused (Identifier)", (name, got) => {
    const e = rejection("EC2NodeClass", br(command('mode = "once"', name)), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe(`line 1: [settings.bootstrap-commands.${name}]`);
    expect(e.message).toContain(
      `as a name of ASCII letters, digits and "-", at most 76 characters (Bottlerocket's Identifier), got ${got}`,
    );
  });

  test.each([
    ['[["/usr/bin/apiclient", "set", "motd=hi"]]', '["/usr/bin/apiclient","set","motd=hi"]'],
    ['[["echo", "hi"]]', '["echo","hi"]'],
    ["[[]]", "[]"],
  ])("commands = %s is refused (ApiclientCommand)", (commands, got) => {
    const e = rejection(
      "EC2NodeClass",
      br(`[settings.bootstrap-commands.setup]\ncommands = ${commands}\nmode = "once"\n`),
      "1.15.0",
    );
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe(`line 2: commands = ${commands}`);
    expect(e.message).toContain(
      `settings.bootstrap-commands.setup.commands[0] as a command whose first word is "apiclient"`,
    );
    expect(e.message).toContain(`got ${got}`);
  });

  test("all problems of the table at once, one error; a type Karpenter refuses is reported once, as Karpenter's", () => {
    const e = rejection(
      "EC2NodeClass",
      br('[settings.bootstrap-commands.a_b]\ncommands = [["echo", 1], ["sh"]]\nmode = "Always"\n'),
      "1.15.0",
    );
    expect(e.problems).toHaveLength(1);
    expect(e.message).toContain("settings.bootstrap-commands.a_b.commands[0][1] as a string, got an integer");
    expect(e.message).toContain("settings.bootstrap-commands.a_b as a name of ASCII letters");
    expect(e.message).toContain('settings.bootstrap-commands.a_b.mode as one of "off", "once", "always"');
    expect(e.message).toContain(
      'settings.bootstrap-commands.a_b.commands[1] as a command whose first word is "apiclient"',
    );
    expect(e.message).not.toContain("commands[0] as a command");
  });

  test("look-alikes pass: the three modes as written, no mode, names of letters, digits and -, apiclient commands", () => {
    for (const u of [
      command('mode = "off"'),
      command('mode = "once"\nessential = true'),
      command('mode = "always"'),
      command(""),
      command('mode = "once"', "001-Set-MOTD"),
      command('mode = "once"', "a".repeat(76)),
      '[settings.bootstrap-commands.setup]\ncommands = [["apiclient", "set", "motd=hi"], ["apiclient", "apply"]]\n',
      "[settings.bootstrap-commands.setup]\ncommands = []\n",
    ]) {
      expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
      expect(synthWarnings(build("EC2NodeClass", br(u), "1.15.0")).filter((w) => w.includes("userData"))).toEqual([]);
    }
  });
});

describe("settings.bootstrap-containers: Karpenter passes them on, Bottlerocket's model refuses at boot", () => {
  test.each([
    [
      'mode = "Once"',
      'settings.bootstrap-containers.setup.mode as one of "off", "once", "always", as written',
      '"Once"',
    ],
    ["mode = 1", "settings.bootstrap-containers.setup.mode as a string", "an integer"],
    ['essential = "true"', "settings.bootstrap-containers.setup.essential as true or false", "a string"],
    ['command = "echo hi"', "settings.bootstrap-containers.setup.command as an array of strings", "a string"],
    ['command = ["echo", 1]', "settings.bootstrap-containers.setup.command as an array of strings", "an array"],
    [
      'user-data = "not base64!"',
      "settings.bootstrap-containers.setup.user-data as base64 text on one line",
      '"not base64!"',
    ],
    [
      'user-data = "aGk=\\naGk="',
      "settings.bootstrap-containers.setup.user-data as base64 text on one line",
      '"aGk=\\naGk="',
    ],
    [
      'user-data = "aGk=aGk="',
      "settings.bootstrap-containers.setup.user-data as base64 text on one line",
      '"aGk=aGk="',
    ],
  ])("%s is refused", (line, want, got) => {
    const e = rejection("EC2NodeClass", br(container(line)), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe(`line 3: ${line}`);
    expect(e.message).toContain(`${want}`);
    expect(e.message).toContain(`got ${got}`);
    expect(e.message).toContain("Karpenter passes settings.bootstrap-containers on as written");
    expect(e.message).toContain("Bottlerocket itself refuses the settings at boot");
    expect(e.message).toContain("settings-extensions/bootstrap-containers/src/lib.rs, BootstrapContainer");
  });

  test("a source that is no URL, a name that is no Identifier, a container that is no table", () => {
    const e = rejection(
      "EC2NodeClass",
      br(
        '[settings.bootstrap-containers.my_setup]\nsource = "how are you"\n[settings.bootstrap-containers]\nother = 5\n',
      ),
      "1.15.0",
    );
    expect(e.problems).toHaveLength(1);
    expect(e.message).toContain('settings.bootstrap-containers.my_setup as a name of ASCII letters, digits and "-"');
    expect(e.message).toContain(
      "settings.bootstrap-containers.my_setup.source as an image reference Bottlerocket reads as a URL",
    );
    expect(e.message).toContain('got "how are you"');
    expect(e.message).toContain(
      "settings.bootstrap-containers.other as a table (source, mode, user-data, essential, command), got an integer",
    );
  });

  test("look-alikes pass: lower-case modes, image references, padded base64, a command", () => {
    for (const u of [
      container('mode = "once"\nessential = true\nuser-data = "aGk="'),
      container('mode = "always"\ncommand = ["/bin/setup", "--fast"]'),
      container('mode = "off"\nuser-data = ""'),
      '[settings.bootstrap-containers.setup-2]\nsource = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/setup@sha256:abc"\nmode = "once"\n',
      '[settings.bootstrap-containers.x]\nsource = "localhost:5000/img"\n',
    ])
      expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
  });
});
