// 简体中文 strings of the authors' docs (authors.html, element/authors.js) and the element's manifest,
// registered there with the English ones (addStrings): no other page carries them.
export default {
  'element.attribute.config': '合并在其他属性之上的 JSON：任何配置字段，包括权重的修改。',
  'element.attribute.preset': '预设的键（`tutorial`、`multi-head` 等）：其设置位于其他属性之下，并显示其说明。',
  'element.event.change': '每次运行后触发，detail 为结果（词元、词表和每个张量）。',
  'element.event.error': '属性无效时触发，detail 为 {field, code, params, message}；元素会在内部显示该错误。',
  'element.css.negative': '热力图中最小负值的颜色（有符号色阶）。',
  'element.css.zero': '有符号色阶中 0 的颜色（默认：背景色）。',
  'element.css.positive': '热力图中最大正值的颜色（有符号色阶）。',
  'element.css.probabilityLow':
    '概率 0 的颜色（与 `--attention-lab-probability-high` 一起，用双色色阶代替 `viridis`）。',
  'element.css.probabilityHigh': '概率 1 的颜色。',
  'element.css.head': '第 {h} 个头的颜色：它的标签、色带、连线和小热力图。',
  'element.css.background': '背景色（随主题为浅色或深色）。',
  'element.css.color': '文字颜色。',
  'element.css.muted': '次要文字的颜色。',
  'element.css.line': '边框和分隔线。',
  'element.css.panel': '解释和说明面板的背景色。',
  'element.css.accent': '链接、焦点和选中状态。',
  'element.css.error': '元素内错误提示的颜色。',
  'element.css.chip': '词元标签的背景色。',
  'element.css.font': '文字的字体。',
  'element.css.mono': '数字和代码的字体。',
  'element.css.radius': '外框的圆角半径。',
  'authors.css.property': '自定义属性',
  'authors.css.parts': '可用 <code>::part()</code> 设置样式的部分：',
  'authors.back': '← Attention Lab',
  'authors.title': '写给教程作者的 Attention Lab',
  'authors.intro':
    '把这个计算器放进你自己的网页，链接到你设好的那一步，再把它的数字和代码贴进你的文章。相同的随机种子和设置下，这些数字与 PyTorch 打印的一致。',
  'authors.element.heading': '一个 <code>&lt;script&gt;</code> 标签：<code>&lt;attention-lab&gt;</code>',
  'authors.element.body':
    '该元素在影子 DOM（<code>Shadow DOM</code>）中渲染，只在接近视口时才加载引擎，同一页面上的所有元素共用一个引擎实例。有两种构建：<code>dist/attention-lab-element.standalone.js</code> 是一个自包含的英文普通脚本（引擎、英文字符串和样式都在其中，可从 <code>file://</code> 打开；只有部分页面需要的内容——中文字符串、训练好的模型和检查点的视图——在需要时从它旁边的 <code>standalone/</code> 文件夹加载，<code>model="tiny"</code> 会从 <code>tiny/</code> 文件夹获取训练好的模型的文件），用法如上；<code>attention-lab-element.standalone.zh.js</code> 与之相同，但中文字符串就在其中（中文页面请用它）；<code>dist/attention-lab-element.js</code> 是一个 ES 模块，从它旁边的 <code>assets/</code> 文件夹加载引擎和中文字符串（<code>npm i attention-lab</code> 之后 <code>import \'attention-lab/element\'</code>）。',
  'authors.attributes.heading': '属性',
  'authors.attributes.attribute': '属性',
  'authors.attributes.field': '配置字段',
  'authors.attributes.type': '类型',
  'authors.attributes.default': '默认值',
  'authors.attributes.meaning': '含义',
  'authors.attributes.body':
    '这张表就是引擎自己的配置模式：每个配置字段都是一个属性，名称与命令行参数相同；<code>config</code> 接受一段 JSON，合并在这些属性之上。每个属性也是一个有类型的属性值（<code>el.dModel = 16</code>、<code>el.heads = 4</code>、<code>el.qkvBias = false</code>、<code>el.editable = true</code>、<code>el.config = {…}</code>），改动任何一个都会重新计算。每次运行后元素会触发 <code>attention-change</code> 事件，<code>event.detail</code> 是结果（词元、词表以及每个张量的 <code>Float32Array</code>）；属性有误时触发 <code>attention-error</code>，并在元素内显示指明该属性的提示。',
  'authors.class.heading': '课堂上',
  'authors.class.body':
    '各步骤都有编号，并连同形状列在顶部；点击方框即跳到对应步骤。读者可以跟随一个词元（<em>跟随词元</em>菜单，或点击行标签）：它的行在每一步都会高亮，作为键时它的列也会高亮；按 <code>Esc</code> 取消。<code>mode="steps"</code> 一次只显示一步，字号更大，并配有引用结果数字的简短讲解，用 ← →（<code>PageUp</code>/<code>PageDown</code>、<code>Home</code>/<code>End</code>）或“上一步/下一步”按钮切换。',
  'authors.styling.heading': '样式',
  'authors.styling.body':
    '在元素上设置这些 CSS 自定义属性（它们会进入元素的影子根）。热力图和各个头的颜色在绘制时读取，并在主题、读者的配色偏好或 <code>&lt;html&gt;</code>、<code>&lt;body&gt;</code> 上网站的浅色/深色标记改变时（网站的深色模式开关）重新读取。无论颜色如何，热力图上的每个数字都取黑色或白色中对比度更高的一个：至少 4.5:1。包中的 <code>custom-elements.json</code> 为编辑器列出了这些内容。',
  'authors.iframe.heading': 'iframe 嵌入',
  'authors.iframe.body':
    '主页面的“分享”按钮会给出一段指向 <code>embed.html</code> 的 <code>&lt;iframe&gt;</code> 代码，其 URL 片段以紧凑、带版本号的编码保存全部设置（<code>#s=v2.…</code>）。URL 的查询参数决定显示方式，与元素的属性相同：<code>lang</code>（<code>zh</code>、<code>zh-CN</code> 等）、<code>steps</code>、<code>theme</code>、<code>head</code> 和 <code>compact</code>。加上 <code>origin=</code> 你的页面的源，它就只向这个源发送自身高度（不含其他内容），方便你调整框架大小，并且只接受来自这个源的 <code>{type: "attention-lab:set", theme, lang, steps}</code>（三者任选），无需重新加载即可生效；不加则既不发送也不接受任何消息。下面的监听脚本会调整页面上每个这样的框架的高度，按各自的窗口对应，并且只接受来自 <code>embed.html</code> 所在源的高度（“分享”对话框给出的代码写的是 <code>origin=https://your-site.example</code>，请换成你的页面的源）。下例中博客自己在 <code>/attention-lab/</code> 下提供 <code>dist/</code>，所以两个源都是博客的：',
  'authors.export.heading': '给文章用的数字和代码',
  'authors.export.body':
    '每个矩阵下方：复制为 CSV、JSON、LaTeX <code>bmatrix</code> 或 NumPy 字面量。页面顶部：把所有张量下载为一个 JSON 文件或一个 NumPy <code>.npz</code> 文件（用 <code>np.load</code> 读取）；<em>复制为 PyTorch 代码</em> 给出一段短脚本，重建同样的词嵌入、权重、掩码和 dropout，并打印同样的张量。',
  'authors.offline.heading': '离线使用',
  'authors.offline.body':
    '<code>npm run build</code> 会生成 <code>dist/</code>（使用相对路径的静态网站，可放在任意文件夹下）、<code>dist/attention-lab.html</code>（一个自包含文件，可从 <code>file://</code> 打开，无需网络）以及 <code>dist/attention-lab-element.standalone.js</code>（元素本身，一个自包含的脚本）。',
  'authors.recipes.heading': '放进你的网站：HTML、VitePress、Docusaurus、Astro、MkDocs、Hexo、Jupyter',
  'authors.recipes.body':
    '下面每个用法都在测试中按原样运行，用的是从打包文件（<code>npm pack</code>）安装的 <code>npm</code> 包。地址来自 jsDelivr（<code>https://unpkg.com/attention-lab@…/…</code> 提供同样的文件）；也可以 <code>npm i attention-lab</code>，再使用 <code>node_modules/attention-lab/dist/</code>。',
  'authors.recipes.html.heading': '普通 HTML 页面',
  'authors.recipes.html.body':
    '在 <code>&lt;head&gt;</code> 中放一个普通脚本。把脚本保存在页面旁边，页面就能离线使用，直接作为文件打开（<code>file://</code>）；<code>&lt;script type="module" src&gt;</code> 同样可用。',
  'authors.recipes.vitepress.heading': 'VitePress 1.6',
  'authors.recipes.vitepress.body':
    '<code>npm i attention-lab</code> 之后：告诉 Vue <code>attention-lab</code> 是自定义元素，并且只在浏览器中导入该元素（<code>vitepress build</code> 会先在 Node.js 中渲染页面，那里无法定义元素）。',
  'authors.recipes.vitepress.page':
    '在页面中把 <code>theme</code> 绑定到 VitePress 的 <code>isDark</code>，元素就会跟随浅色/深色切换：',
  'authors.recipes.docusaurus.heading': 'Docusaurus 3',
  'authors.recipes.docusaurus.body':
    '<code>npm i attention-lab</code> 之后：在一个客户端模块中导入该元素，只在浏览器中导入（Docusaurus 会先在 Node.js 中渲染每个页面，那里无法定义元素），在配置中写上这个模块，再在任意 <code>.md</code> 或 <code>.mdx</code> 页面中写标签。元素会自己跟随网站的浅色/深色切换（<code>html[data-theme="dark"]</code>）。',
  'authors.recipes.docusaurus.faster':
    'Docusaurus Faster 用 rspack（以及 SWC 和 Lightning CSS）代替 webpack 打包：<code>npm i @docusaurus/faster</code>，再在配置对象中加上这一行（<code>faster: true</code> 还会在工作线程中渲染页面，这需要 v4 的开关）。无论用哪种打包工具，构建都不输出任何警告。',
  'authors.recipes.astro.heading': 'Astro 5',
  'authors.recipes.astro.body':
    '<code>npm i attention-lab</code> 之后：在页面的 <code>&lt;script&gt;</code> 中导入该元素，Astro 只为浏览器打包这段脚本；标签留在页面的 HTML 中。如果网站的切换按钮在 <code>&lt;html&gt;</code> 上设置 <code>class="dark"</code>（或 <code>data-theme="dark"</code>），元素也会随之变为深色。',
  'authors.recipes.mkdocs.heading': '使用 Material 主题的 MkDocs',
  'authors.recipes.mkdocs.body':
    '在 <code>mkdocs.yml</code> 中把独立脚本作为额外脚本加载（从 CDN 加载，或保存到 <code>docs/</code> 中，并在旁边放上 <code>standalone/</code> 文件夹，脚本在需要时从中加载各个部分），再在任意页面中写标签。Material 的配色切换（<code>slate</code>）也会让元素变为深色；中文网站（<code>theme: { language: zh }</code>）得到的是中文的元素。',
  'authors.recipes.hexo.heading': 'Hexo 7',
  'authors.recipes.hexo.body':
    '<code>npm i attention-lab</code> 之后：网站 <code>scripts/</code> 文件夹中的一个脚本从包中提供独立元素，以及它从旁边加载的部分（<code>standalone/</code>），并把它加到每个页面的 <code>&lt;head&gt;</code> 中；再在任意文章或页面中写标签。',
  'authors.recipes.jupyter.heading': 'Jupyter 笔记本单元格',
  'authors.recipes.jupyter.body':
    '适用于经典的 Jupyter Notebook、JupyterLab（需为受信任的笔记本：JupyterLab 只在这时运行单元格中的脚本）以及 <code>jupyter nbconvert --execute --to html</code>。从 CDN 加载：',
  'authors.recipes.jupyter.offline': '离线：把脚本的文本放进笔记本，从笔记本所在文件夹中安装的包读取：',
  'authors.gallery.heading': '示例库：所有预设，实时运行',
  'authors.gallery.body':
    '每个预设都对应一个经典的 PyTorch 程序（仓库中的 <code>tests/reference/programs/</code>），显示的正是它打印的数字。<code>preset="…"</code> 采用该预设的设置（按元素的语言），显示它的说明，其他任何属性都可以覆盖这些设置：<code>&lt;attention-lab preset="multi-head" heads="3"&gt;</code>。',
};
