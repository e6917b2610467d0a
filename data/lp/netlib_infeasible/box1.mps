NAME          BOX1
ROWS
 N  OBJECT
 E  P0000000
 E  P0000001
 E  P0000002
 E  P0001000
 E  P0001001
 E  P0001002
 E  P0002000
 E  P0002001
 E  P0002002
 E  P0003000
 E  P0003001
 E  P0003002
 E  P0004000
 E  P0004001
 E  P0004002
 E  P0005000
 E  P0005001
 E  P0005002
 E  P0006000
 E  P0006001
 E  P0006002
 E  P0007000
 E  P0007001
 E  P0007002
 E  P0008000
 E  P0008001
 E  P0008002
 E  P0009000
 E  P0009001
 E  P0009002
 E  P0010000
 E  P0010001
 E  P0010002
 E  P0011000
 E  P0011001
 E  P0011002
 E  P0012000
 E  P0012001
 E  P0012002
 E  P0013000
 E  P0013001
 E  P0013002
 E  P0014000
 E  P0014001
 E  P0014002
 E  P0015000
 E  P0015001
 E  P0015002
 E  P0016000
 E  P0016001
 E  P0016002
 E  P0017000
 E  P0017001
 E  P0017002
 E  P0018000
 E  P0018001
 E  P0018002
 E  P0019000
 E  P0019001
 E  P0019002
 E  P0020000
 E  P0020001
 E  P0020002
 E  P0021000
 E  P0021001
 E  P0021002
 E  P0022000
 E  P0022001
 E  P0022002
 E  P0023000
 E  P0023001
 E  P0023002
 E  P0024000
 E  P0024001
 E  P0024002
 E  P0025000
 E  P0025001
 E  P0025002
 E  P0026000
 E  P0026001
 E  P0026002
 E  P0027000
 E  P0027001
 E  P0027002
 E  P0028000
 E  P0028001
 E  P0028002
 E  P0029000
 E  P0029001
 E  P0029002
 E  P0030000
 E  P0030001
 E  P0030002
 E  P0031000
 E  P0031001
 E  P0031002
 E  P0032000
 E  P0032001
 E  P0032002
 E  P0033000
 E  P0033001
 E  P0033002
 E  P0034000
 E  P0034001
 E  P0034002
 E  P0035000
 E  P0035001
 E  P0035002
 E  P0036000
 E  P0036001
 E  P0036002
 E  P0037000
 E  P0037001
 E  P0037002
 E  P0038000
 E  P0038001
 E  P0038002
 E  P0039000
 E  P0039001
 E  P0039002
 E  P0040000
 E  P0040001
 E  P0040002
 E  P0041000
 E  P0041001
 E  P0041002
 E  P0042000
 E  P0042001
 E  P0042002
 E  P0042003
 E  P0043000
 E  P0043001
 E  P0043002
 E  P0044000
 E  P0044001
 E  P0044002
 E  P0045000
 E  P0045001
 E  P0045002
 E  P0046000
 E  P0046001
 E  P0046002
 E  P0047000
 E  P0047001
 E  P0047002
 E  P0048000
 E  P0048001
 E  P0048002
 E  P0049000
 E  P0049001
 E  P0049002
 E  P0050000
 E  P0050001
 E  P0050002
 E  P0051000
 E  P0051001
 E  P0051002
 E  P0052000
 E  P0052001
 E  P0052002
 E  P0053000
 E  P0053001
 E  P0053002
 E  P0054000
 E  P0054001
 E  P0054002
 E  P0055000
 E  P0055001
 E  P0055002
 E  P0056000
 E  P0056001
 E  P0056002
 E  P0057000
 E  P0057001
 E  P0057002
 E  P0058000
 E  P0058001
 E  P0058002
 E  P0059000
 E  P0059001
 E  P0059002
 E  P0060000
 E  P0060001
 E  P0060002
 E  P0061000
 E  P0061001
 E  P0061002
 E  P0062000
 E  P0062001
 E  P0062002
 E  P0063000
 E  P0063001
 E  P0063002
 E  P0064000
 E  P0065000
 E  R0000
 E  R0001
 E  R0002
 E  R0003
 E  R0004
 E  R0005
 E  R0006
 E  R0007
 E  R0008
 E  R0009
 E  R0010
 E  R0011
 E  R0012
 E  R0013
 E  R0014
 E  R0015
 E  R0016
 E  R0017
 E  R0018
 E  R0019
 E  R0020
 E  R0021
 E  R0022
 E  R0023
 E  R0024
 E  R0025
 E  R0026
 E  R0027
 E  R0028
 E  R0029
 E  R0030
 E  R0031
 E  R0032
 E  R0033
 E  R0034
 E  R0035
COLUMNS
    E0000     OBJECT              1.   P0000002           -1.
    E0000     R0001              -1.
    E0001     OBJECT              1.   P0000001           -1.
    E0001     R0035              -1.
    E0002     OBJECT              1.   P0000000           -1.
    E0002     R0000               1.
    E0003     OBJECT              1.   P0000000            1.
    E0003     P0000001            1.   P0000002            1.
    E0003     R0034               1.
    E0004     OBJECT              1.   P0001002           -1.
    E0004     R0003              -1.
    E0005     OBJECT              1.   P0001001           -1.
    E0005     R0035              -1.
    E0006     OBJECT              1.   P0001000           -1.
    E0006     R0002               1.
    E0007     OBJECT              1.   P0001000            1.
    E0007     P0001001            1.   P0001002            1.
    E0007     R0034               1.
    E0008     OBJECT              1.   P0002002           -1.
    E0008     R0002              -1.
    E0009     OBJECT              1.   P0002001           -1.
    E0009     R0034              -1.
    E0010     OBJECT              1.   P0002000           -1.
    E0010     R0035               1.
    E0011     OBJECT              1.   P0002000            1.
    E0011     P0002001            1.   P0002002            1.
    E0011     R0003               1.
    E0012     OBJECT              1.   P0003002           -1.
    E0012     R0000              -1.
    E0013     OBJECT              1.   P0003001           -1.
    E0013     R0034              -1.
    E0014     OBJECT              1.   P0003000           -1.
    E0014     R0035               1.
    E0015     OBJECT              1.   P0003000            1.
    E0015     P0003001            1.   P0003002            1.
    E0015     R0001               1.
    E0016     OBJECT              1.   P0004002           -1.
    E0016     R0001              -1.
    E0017     OBJECT              1.   P0004001           -1.
    E0017     R0031              -1.
    E0018     OBJECT              1.   P0004000           -1.
    E0018     R0000               1.
    E0019     OBJECT              1.   P0004000            1.
    E0019     P0004001            1.   P0004002            1.
    E0019     R0030               1.
    E0020     OBJECT              1.   P0005002           -1.
    E0020     R0003              -1.
    E0021     OBJECT              1.   P0005001           -1.
    E0021     R0031              -1.
    E0022     OBJECT              1.   P0005000           -1.
    E0022     R0002               1.
    E0023     OBJECT              1.   P0005000            1.
    E0023     P0005001            1.   P0005002            1.
    E0023     R0030               1.
    E0024     OBJECT              1.   P0006002           -1.
    E0024     R0002              -1.
    E0025     OBJECT              1.   P0006001           -1.
    E0025     R0030              -1.
    E0026     OBJECT              1.   P0006000           -1.
    E0026     R0031               1.
    E0027     OBJECT              1.   P0006000            1.
    E0027     P0006001            1.   P0006002            1.
    E0027     R0003               1.
    E0028     OBJECT              1.   P0007002           -1.
    E0028     R0000              -1.
    E0029     OBJECT              1.   P0007001           -1.
    E0029     R0030              -1.
    E0030     OBJECT              1.   P0007000           -1.
    E0030     R0031               1.
    E0031     OBJECT              1.   P0007000            1.
    E0031     P0007001            1.   P0007002            1.
    E0031     R0001               1.
    E0032     OBJECT              1.   P0008002           -1.
    E0032     R0001              -1.
    E0033     OBJECT              1.   P0008001           -1.
    E0033     R0027              -1.
    E0034     OBJECT              1.   P0008000           -1.
    E0034     R0000               1.
    E0035     OBJECT              1.   P0008000            1.
    E0035     P0008001            1.   P0008002            1.
    E0035     R0026               1.
    E0036     OBJECT              1.   P0009002           -1.
    E0036     R0003              -1.
    E0037     OBJECT              1.   P0009001           -1.
    E0037     R0027              -1.
    E0038     OBJECT              1.   P0009000           -1.
    E0038     R0002               1.
    E0039     OBJECT              1.   P0009000            1.
    E0039     P0009001            1.   P0009002            1.
    E0039     R0026               1.
    E0040     OBJECT              1.   P0010002           -1.
    E0040     R0002              -1.
    E0041     OBJECT              1.   P0010001           -1.
    E0041     R0026              -1.
    E0042     OBJECT              1.   P0010000           -1.
    E0042     R0027               1.
    E0043     OBJECT              1.   P0010000            1.
    E0043     P0010001            1.   P0010002            1.
    E0043     R0003               1.
    E0044     OBJECT              1.   P0011002           -1.
    E0044     R0000              -1.
    E0045     OBJECT              1.   P0011001           -1.
    E0045     R0026              -1.
    E0046     OBJECT              1.   P0011000           -1.
    E0046     R0027               1.
    E0047     OBJECT              1.   P0011000            1.
    E0047     P0011001            1.   P0011002            1.
    E0047     R0001               1.
    E0048     OBJECT              1.   P0012002           -1.
    E0048     R0001              -1.
    E0049     OBJECT              1.   P0012001           -1.
    E0049     R0023              -1.
    E0050     OBJECT              1.   P0012000           -1.
    E0050     R0000               1.
    E0051     OBJECT              1.   P0012000            1.
    E0051     P0012001            1.   P0012002            1.
    E0051     R0022               1.
    E0052     OBJECT              1.   P0013002           -1.
    E0052     R0003              -1.
    E0053     OBJECT              1.   P0013001           -1.
    E0053     R0023              -1.
    E0054     OBJECT              1.   P0013000           -1.
    E0054     R0002               1.
    E0055     OBJECT              1.   P0013000            1.
    E0055     P0013001            1.   P0013002            1.
    E0055     R0022               1.
    E0056     OBJECT              1.   P0014002           -1.
    E0056     R0002              -1.
    E0057     OBJECT              1.   P0014001           -1.
    E0057     R0022              -1.
    E0058     OBJECT              1.   P0014000           -1.
    E0058     R0023               1.
    E0059     OBJECT              1.   P0014000            1.
    E0059     P0014001            1.   P0014002            1.
    E0059     R0003               1.
    E0060     OBJECT              1.   P0015002           -1.
    E0060     R0000              -1.
    E0061     OBJECT              1.   P0015001           -1.
    E0061     R0022              -1.
    E0062     OBJECT              1.   P0015000           -1.
    E0062     R0023               1.
    E0063     OBJECT              1.   P0015000            1.
    E0063     P0015001            1.   P0015002            1.
    E0063     R0001               1.
    E0064     OBJECT              1.   P0016002           -1.
    E0064     R0001              -1.
    E0065     OBJECT              1.   P0016001           -1.
    E0065     R0019              -1.
    E0066     OBJECT              1.   P0016000           -1.
    E0066     R0000               1.
    E0067     OBJECT              1.   P0016000            1.
    E0067     P0016001            1.   P0016002            1.
    E0067     R0018               1.
    E0068     OBJECT              1.   P0017002           -1.
    E0068     R0003              -1.
    E0069     OBJECT              1.   P0017001           -1.
    E0069     R0019              -1.
    E0070     OBJECT              1.   P0017000           -1.
    E0070     R0002               1.
    E0071     OBJECT              1.   P0017000            1.
    E0071     P0017001            1.   P0017002            1.
    E0071     R0018               1.
    E0072     OBJECT              1.   P0018002           -1.
    E0072     R0002              -1.
    E0073     OBJECT              1.   P0018001           -1.
    E0073     R0018              -1.
    E0074     OBJECT              1.   P0018000           -1.
    E0074     R0019               1.
    E0075     OBJECT              1.   P0018000            1.
    E0075     P0018001            1.   P0018002            1.
    E0075     R0003               1.
    E0076     OBJECT              1.   P0019002           -1.
    E0076     R0000              -1.
    E0077     OBJECT              1.   P0019001           -1.
    E0077     R0018              -1.
    E0078     OBJECT              1.   P0019000           -1.
    E0078     R0019               1.
    E0079     OBJECT              1.   P0019000            1.
    E0079     P0019001            1.   P0019002            1.
    E0079     R0001               1.
    E0080     OBJECT              1.   P0020002           -1.
    E0080     R0001              -1.
    E0081     OBJECT              1.   P0020001           -1.
    E0081     R0015              -1.
    E0082     OBJECT              1.   P0020000           -1.
    E0082     R0000               1.
    E0083     OBJECT              1.   P0020000            1.
    E0083     P0020001            1.   P0020002            1.
    E0083     R0014               1.
    E0084     OBJECT              1.   P0021002           -1.
    E0084     R0003              -1.
    E0085     OBJECT              1.   P0021001           -1.
    E0085     R0015              -1.
    E0086     OBJECT              1.   P0021000           -1.
    E0086     R0002               1.
    E0087     OBJECT              1.   P0021000            1.
    E0087     P0021001            1.   P0021002            1.
    E0087     R0014               1.
    E0088     OBJECT              1.   P0022002           -1.
    E0088     R0002              -1.
    E0089     OBJECT              1.   P0022001           -1.
    E0089     R0014              -1.
    E0090     OBJECT              1.   P0022000           -1.
    E0090     R0015               1.
    E0091     OBJECT              1.   P0022000            1.
    E0091     P0022001            1.   P0022002            1.
    E0091     R0003               1.
    E0092     OBJECT              1.   P0023002           -1.
    E0092     R0000              -1.
    E0093     OBJECT              1.   P0023001           -1.
    E0093     R0014              -1.
    E0094     OBJECT              1.   P0023000           -1.
    E0094     R0015               1.
    E0095     OBJECT              1.   P0023000            1.
    E0095     P0023001            1.   P0023002            1.
    E0095     R0001               1.
    E0096     OBJECT              1.   P0024002           -1.
    E0096     R0001              -1.
    E0097     OBJECT              1.   P0024001           -1.
    E0097     R0011              -1.
    E0098     OBJECT              1.   P0024000           -1.
    E0098     R0000               1.
    E0099     OBJECT              1.   P0024000            1.
    E0099     P0024001            1.   P0024002            1.
    E0099     R0010               1.
    E0100     OBJECT              1.   P0025002           -1.
    E0100     R0003              -1.
    E0101     OBJECT              1.   P0025001           -1.
    E0101     R0011              -1.
    E0102     OBJECT              1.   P0025000           -1.
    E0102     R0002               1.
    E0103     OBJECT              1.   P0025000            1.
    E0103     P0025001            1.   P0025002            1.
    E0103     R0010               1.
    E0104     OBJECT              1.   P0026002           -1.
    E0104     R0002              -1.
    E0105     OBJECT              1.   P0026001           -1.
    E0105     R0010              -1.
    E0106     OBJECT              1.   P0026000           -1.
    E0106     R0011               1.
    E0107     OBJECT              1.   P0026000            1.
    E0107     P0026001            1.   P0026002            1.
    E0107     R0003               1.
    E0108     OBJECT              1.   P0027002           -1.
    E0108     R0000              -1.
    E0109     OBJECT              1.   P0027001           -1.
    E0109     R0010              -1.
    E0110     OBJECT              1.   P0027000           -1.
    E0110     R0011               1.
    E0111     OBJECT              1.   P0027000            1.
    E0111     P0027001            1.   P0027002            1.
    E0111     R0001               1.
    E0112     OBJECT              1.   P0028002           -1.
    E0112     R0001              -1.
    E0113     OBJECT              1.   P0028001           -1.
    E0113     R0007              -1.
    E0114     OBJECT              1.   P0028000           -1.
    E0114     R0000               1.
    E0115     OBJECT              1.   P0028000            1.
    E0115     P0028001            1.   P0028002            1.
    E0115     R0006               1.
    E0116     OBJECT              1.   P0029002           -1.
    E0116     R0003              -1.
    E0117     OBJECT              1.   P0029001           -1.
    E0117     R0007              -1.
    E0118     OBJECT              1.   P0029000           -1.
    E0118     R0002               1.
    E0119     OBJECT              1.   P0029000            1.
    E0119     P0029001            1.   P0029002            1.
    E0119     R0006               1.
    E0120     OBJECT              1.   P0030002           -1.
    E0120     R0002              -1.
    E0121     OBJECT              1.   P0030001           -1.
    E0121     R0006              -1.
    E0122     OBJECT              1.   P0030000           -1.
    E0122     R0007               1.
    E0123     OBJECT              1.   P0030000            1.
    E0123     P0030001            1.   P0030002            1.
    E0123     R0003               1.
    E0124     OBJECT              1.   P0031002           -1.
    E0124     R0000              -1.
    E0125     OBJECT              1.   P0031001           -1.
    E0125     R0006              -1.
    E0126     OBJECT              1.   P0031000           -1.
    E0126     R0007               1.
    E0127     OBJECT              1.   P0031000            1.
    E0127     P0031001            1.   P0031002            1.
    E0127     R0001               1.
    E0128     OBJECT              1.   P0032002           -1.
    E0128     R0001              -1.
    E0129     OBJECT              1.   P0032001           -1.
    E0129     R0005              -1.
    E0130     OBJECT              1.   P0032000           -1.
    E0130     R0000               1.
    E0131     OBJECT              1.   P0032000            1.
    E0131     P0032001            1.   P0032002            1.
    E0131     R0004               1.
    E0132     OBJECT              1.   P0033002           -1.
    E0132     R0003              -1.
    E0133     OBJECT              1.   P0033001           -1.
    E0133     R0005              -1.
    E0134     OBJECT              1.   P0033000           -1.
    E0134     R0002               1.
    E0135     OBJECT              1.   P0033000            1.
    E0135     P0033001            1.   P0033002            1.
    E0135     R0004               1.
    E0136     OBJECT              1.   P0034002           -1.
    E0136     R0002              -1.
    E0137     OBJECT              1.   P0034001           -1.
    E0137     R0004              -1.
    E0138     OBJECT              1.   P0034000           -1.
    E0138     R0005               1.
    E0139     OBJECT              1.   P0034000            1.
    E0139     P0034001            1.   P0034002            1.
    E0139     R0003               1.
    E0140     OBJECT              1.   P0035002           -1.
    E0140     R0000              -1.
    E0141     OBJECT              1.   P0035001           -1.
    E0141     R0004              -1.
    E0142     OBJECT              1.   P0035000           -1.
    E0142     R0005               1.
    E0143     OBJECT              1.   P0035000            1.
    E0143     P0035001            1.   P0035002            1.
    E0143     R0001               1.
    E0144     OBJECT              1.   P0036002           -1.
    E0144     R0000              -1.
    E0145     OBJECT              1.   P0036001           -1.
    E0145     R0008              -1.
    E0146     OBJECT              1.   P0036000           -1.
    E0146     R0009               1.
    E0147     OBJECT              1.   P0036000            1.
    E0147     P0036001            1.   P0036002            1.
    E0147     R0001               1.
    E0148     OBJECT              1.   P0037002           -1.
    E0148     R0002              -1.
    E0149     OBJECT              1.   P0037001           -1.
    E0149     R0008              -1.
    E0150     OBJECT              1.   P0037000           -1.
    E0150     R0009               1.
    E0151     OBJECT              1.   P0037000            1.
    E0151     P0037001            1.   P0037002            1.
    E0151     R0003               1.
    E0152     OBJECT              1.   P0038002           -1.
    E0152     R0001              -1.
    E0153     OBJECT              1.   P0038001           -1.
    E0153     R0009              -1.
    E0154     OBJECT              1.   P0038000           -1.
    E0154     R0000               1.
    E0155     OBJECT              1.   P0038000            1.
    E0155     P0038001            1.   P0038002            1.
    E0155     R0008               1.
    E0156     OBJECT              1.   P0039002           -1.
    E0156     R0003              -1.
    E0157     OBJECT              1.   P0039001           -1.
    E0157     R0009              -1.
    E0158     OBJECT              1.   P0039000           -1.
    E0158     R0002               1.
    E0159     OBJECT              1.   P0039000            1.
    E0159     P0039001            1.   P0039002            1.
    E0159     R0008               1.
    E0160     OBJECT              1.   P0040002           -1.
    E0160     R0000              -1.
    E0161     OBJECT              1.   P0040001           -1.
    E0161     R0012              -1.
    E0162     OBJECT              1.   P0040000           -1.
    E0162     R0013               1.
    E0163     OBJECT              1.   P0040000            1.
    E0163     P0040001            1.   P0040002            1.
    E0163     R0001               1.
    E0164     OBJECT              1.   P0041002           -1.
    E0164     R0002              -1.
    E0165     OBJECT              1.   P0041001           -1.
    E0165     R0012              -1.
    E0166     OBJECT              1.   P0041000           -1.
    E0166     R0013               1.
    E0167     OBJECT              1.   P0041000            1.
    E0167     P0041001            1.   P0041002            1.
    E0167     R0003               1.
    E0168     OBJECT              1.   P0042003           -1.
    E0168     R0034              -1.
    E0169     OBJECT              1.   P0042002           -1.
    E0169     R0001              -1.
    E0170     OBJECT              1.   P0042001           -1.
    E0170     R0013              -1.
    E0171     OBJECT              1.   P0042000           -1.
    E0171     R0000               1.
    E0172     OBJECT              1.   P0042000            1.
    E0172     P0042001            1.   P0042002            1.
    E0172     P0042003            1.   R0012               1.
    E0173     OBJECT              1.   P0043002           -1.
    E0173     R0003              -1.
    E0174     OBJECT              1.   P0043001           -1.
    E0174     R0013              -1.
    E0175     OBJECT              1.   P0043000           -1.
    E0175     R0002               1.
    E0176     OBJECT              1.   P0043000            1.
    E0176     P0043001            1.   P0043002            1.
    E0176     R0012               1.
    E0177     OBJECT              1.   P0044002           -1.
    E0177     R0000              -1.
    E0178     OBJECT              1.   P0044001           -1.
    E0178     R0016              -1.
    E0179     OBJECT              1.   P0044000           -1.
    E0179     R0017               1.
    E0180     OBJECT              1.   P0044000            1.
    E0180     P0044001            1.   P0044002            1.
    E0180     R0001               1.
    E0181     OBJECT              1.   P0045002           -1.
    E0181     R0002              -1.
    E0182     OBJECT              1.   P0045001           -1.
    E0182     R0016              -1.
    E0183     OBJECT              1.   P0045000           -1.
    E0183     R0017               1.
    E0184     OBJECT              1.   P0045000            1.
    E0184     P0045001            1.   P0045002            1.
    E0184     R0003               1.
    E0185     OBJECT              1.   P0046002           -1.
    E0185     R0001              -1.
    E0186     OBJECT              1.   P0046001           -1.
    E0186     R0017              -1.
    E0187     OBJECT              1.   P0046000           -1.
    E0187     R0000               1.
    E0188     OBJECT              1.   P0046000            1.
    E0188     P0046001            1.   P0046002            1.
    E0188     R0016               1.
    E0189     OBJECT              1.   P0047002           -1.
    E0189     R0003              -1.
    E0190     OBJECT              1.   P0047001           -1.
    E0190     R0017              -1.
    E0191     OBJECT              1.   P0047000           -1.
    E0191     R0002               1.
    E0192     OBJECT              1.   P0047000            1.
    E0192     P0047001            1.   P0047002            1.
    E0192     R0016               1.
    E0193     OBJECT              1.   P0048002           -1.
    E0193     R0000              -1.
    E0194     OBJECT              1.   P0048001           -1.
    E0194     R0020              -1.
    E0195     OBJECT              1.   P0048000           -1.
    E0195     R0021               1.
    E0196     OBJECT              1.   P0048000            1.
    E0196     P0048001            1.   P0048002            1.
    E0196     R0001               1.
    E0197     OBJECT              1.   P0049002           -1.
    E0197     R0002              -1.
    E0198     OBJECT              1.   P0049001           -1.
    E0198     R0020              -1.
    E0199     OBJECT              1.   P0049000           -1.
    E0199     R0021               1.
    E0200     OBJECT              1.   P0049000            1.
    E0200     P0049001            1.   P0049002            1.
    E0200     R0003               1.
    E0201     OBJECT              1.   P0050002           -1.
    E0201     R0001              -1.
    E0202     OBJECT              1.   P0050001           -1.
    E0202     R0021              -1.
    E0203     OBJECT              1.   P0050000           -1.
    E0203     R0000               1.
    E0204     OBJECT              1.   P0050000            1.
    E0204     P0050001            1.   P0050002            1.
    E0204     R0020               1.
    E0205     OBJECT              1.   P0051002           -1.
    E0205     R0003              -1.
    E0206     OBJECT              1.   P0051001           -1.
    E0206     R0021              -1.
    E0207     OBJECT              1.   P0051000           -1.
    E0207     R0002               1.
    E0208     OBJECT              1.   P0051000            1.
    E0208     P0051001            1.   P0051002            1.
    E0208     R0020               1.
    E0209     OBJECT              1.   P0052002           -1.
    E0209     R0000              -1.
    E0210     OBJECT              1.   P0052001           -1.
    E0210     R0024              -1.
    E0211     OBJECT              1.   P0052000           -1.
    E0211     R0025               1.
    E0212     OBJECT              1.   P0052000            1.
    E0212     P0052001            1.   P0052002            1.
    E0212     R0001               1.
    E0213     OBJECT              1.   P0053002           -1.
    E0213     R0002              -1.
    E0214     OBJECT              1.   P0053001           -1.
    E0214     R0024              -1.
    E0215     OBJECT              1.   P0053000           -1.
    E0215     R0025               1.
    E0216     OBJECT              1.   P0053000            1.
    E0216     P0053001            1.   P0053002            1.
    E0216     R0003               1.
    E0217     OBJECT              1.   P0054002           -1.
    E0217     R0001              -1.
    E0218     OBJECT              1.   P0054001           -1.
    E0218     R0025              -1.
    E0219     OBJECT              1.   P0054000           -1.
    E0219     R0000               1.
    E0220     OBJECT              1.   P0054000            1.
    E0220     P0054001            1.   P0054002            1.
    E0220     R0024               1.
    E0221     OBJECT              1.   P0055002           -1.
    E0221     R0003              -1.
    E0222     OBJECT              1.   P0055001           -1.
    E0222     R0025              -1.
    E0223     OBJECT              1.   P0055000           -1.
    E0223     R0002               1.
    E0224     OBJECT              1.   P0055000            1.
    E0224     P0055001            1.   P0055002            1.
    E0224     R0024               1.
    E0225     OBJECT              1.   P0056002           -1.
    E0225     R0000              -1.
    E0226     OBJECT              1.   P0056001           -1.
    E0226     R0028              -1.
    E0227     OBJECT              1.   P0056000           -1.
    E0227     R0029               1.
    E0228     OBJECT              1.   P0056000            1.
    E0228     P0056001            1.   P0056002            1.
    E0228     R0001               1.
    E0229     OBJECT              1.   P0057002           -1.
    E0229     R0002              -1.
    E0230     OBJECT              1.   P0057001           -1.
    E0230     R0028              -1.
    E0231     OBJECT              1.   P0057000           -1.
    E0231     R0029               1.
    E0232     OBJECT              1.   P0057000            1.
    E0232     P0057001            1.   P0057002            1.
    E0232     R0003               1.
    E0233     OBJECT              1.   P0058002           -1.
    E0233     R0001              -1.
    E0234     OBJECT              1.   P0058001           -1.
    E0234     R0029              -1.
    E0235     OBJECT              1.   P0058000           -1.
    E0235     R0000               1.
    E0236     OBJECT              1.   P0058000            1.
    E0236     P0058001            1.   P0058002            1.
    E0236     R0028               1.
    E0237     OBJECT              1.   P0059002           -1.
    E0237     R0003              -1.
    E0238     OBJECT              1.   P0059001           -1.
    E0238     R0029              -1.
    E0239     OBJECT              1.   P0059000           -1.
    E0239     R0002               1.
    E0240     OBJECT              1.   P0059000            1.
    E0240     P0059001            1.   P0059002            1.
    E0240     R0028               1.
    E0241     OBJECT              1.   P0060002           -1.
    E0241     R0000              -1.
    E0242     OBJECT              1.   P0060001           -1.
    E0242     R0032              -1.
    E0243     OBJECT              1.   P0060000           -1.
    E0243     R0033               1.
    E0244     OBJECT              1.   P0060000            1.
    E0244     P0060001            1.   P0060002            1.
    E0244     R0001               1.
    E0245     OBJECT              1.   P0061002           -1.
    E0245     R0002              -1.
    E0246     OBJECT              1.   P0061001           -1.
    E0246     R0032              -1.
    E0247     OBJECT              1.   P0061000           -1.
    E0247     R0033               1.
    E0248     OBJECT              1.   P0061000            1.
    E0248     P0061001            1.   P0061002            1.
    E0248     R0003               1.
    E0249     OBJECT              1.   P0062002           -1.
    E0249     R0001              -1.
    E0250     OBJECT              1.   P0062001           -1.
    E0250     R0033              -1.
    E0251     OBJECT              1.   P0062000           -1.
    E0251     R0000               1.
    E0252     OBJECT              1.   P0062000            1.
    E0252     P0062001            1.   P0062002            1.
    E0252     R0032               1.
    E0253     OBJECT              1.   P0063002           -1.
    E0253     R0003              -1.
    E0254     OBJECT              1.   P0063001           -1.
    E0254     R0033              -1.
    E0255     OBJECT              1.   P0063000           -1.
    E0255     R0002               1.
    E0256     OBJECT              1.   P0063000            1.
    E0256     P0063001            1.   P0063002            1.
    E0256     R0032               1.
    E0257     OBJECT              1.   P0064000           -1.
    E0257     R0001              -1.
    E0258     OBJECT              1.   P0064000            1.
    E0258     R0003               1.
    E0259     OBJECT              1.   P0065000           -1.
    E0259     R0003              -1.
    E0260     OBJECT              1.   P0065000            1.
    E0260     R0001               1.
RHS
BOUNDS
 LO BNDSET    E0000               1.
 LO BNDSET    E0001               1.
 LO BNDSET    E0002               1.
 LO BNDSET    E0003               1.
 LO BNDSET    E0004               1.
 LO BNDSET    E0005               1.
 LO BNDSET    E0006               1.
 LO BNDSET    E0007               1.
 LO BNDSET    E0008               1.
 LO BNDSET    E0009               1.
 LO BNDSET    E0010               1.
 LO BNDSET    E0011               1.
 LO BNDSET    E0012               1.
 LO BNDSET    E0013               1.
 LO BNDSET    E0014               1.
 LO BNDSET    E0015               1.
 LO BNDSET    E0016               1.
 LO BNDSET    E0017               1.
 LO BNDSET    E0018               1.
 LO BNDSET    E0019               1.
 LO BNDSET    E0020               1.
 LO BNDSET    E0021               1.
 LO BNDSET    E0022               1.
 LO BNDSET    E0023               1.
 LO BNDSET    E0024               1.
 LO BNDSET    E0025               1.
 LO BNDSET    E0026               1.
 LO BNDSET    E0027               1.
 LO BNDSET    E0028               1.
 LO BNDSET    E0029               1.
 LO BNDSET    E0030               1.
 LO BNDSET    E0031               1.
 LO BNDSET    E0032               1.
 LO BNDSET    E0033               1.
 LO BNDSET    E0034               1.
 LO BNDSET    E0035               1.
 LO BNDSET    E0036               1.
 LO BNDSET    E0037               1.
 LO BNDSET    E0038               1.
 LO BNDSET    E0039               1.
 LO BNDSET    E0040               1.
 LO BNDSET    E0041               1.
 LO BNDSET    E0042               1.
 LO BNDSET    E0043               1.
 LO BNDSET    E0044               1.
 LO BNDSET    E0045               1.
 LO BNDSET    E0046               1.
 LO BNDSET    E0047               1.
 LO BNDSET    E0048               1.
 LO BNDSET    E0049               1.
 LO BNDSET    E0050               1.
 LO BNDSET    E0051               1.
 LO BNDSET    E0052               1.
 LO BNDSET    E0053               1.
 LO BNDSET    E0054               1.
 LO BNDSET    E0055               1.
 LO BNDSET    E0056               1.
 LO BNDSET    E0057               1.
 LO BNDSET    E0058               1.
 LO BNDSET    E0059               1.
 LO BNDSET    E0060               1.
 LO BNDSET    E0061               1.
 LO BNDSET    E0062               1.
 LO BNDSET    E0063               1.
 LO BNDSET    E0064               1.
 LO BNDSET    E0065               1.
 LO BNDSET    E0066               1.
 LO BNDSET    E0067               1.
 LO BNDSET    E0068               1.
 LO BNDSET    E0069               1.
 LO BNDSET    E0070               1.
 LO BNDSET    E0071               1.
 LO BNDSET    E0072               1.
 LO BNDSET    E0073               1.
 LO BNDSET    E0074               1.
 LO BNDSET    E0075               1.
 LO BNDSET    E0076               1.
 LO BNDSET    E0077               1.
 LO BNDSET    E0078               1.
 LO BNDSET    E0079               1.
 LO BNDSET    E0080               1.
 LO BNDSET    E0081               1.
 LO BNDSET    E0082               1.
 LO BNDSET    E0083               1.
 LO BNDSET    E0084               1.
 LO BNDSET    E0085               1.
 LO BNDSET    E0086               1.
 LO BNDSET    E0087               1.
 LO BNDSET    E0088               1.
 LO BNDSET    E0089               1.
 LO BNDSET    E0090               1.
 LO BNDSET    E0091               1.
 LO BNDSET    E0092               1.
 LO BNDSET    E0093               1.
 LO BNDSET    E0094               1.
 LO BNDSET    E0095               1.
 LO BNDSET    E0096               1.
 LO BNDSET    E0097               1.
 LO BNDSET    E0098               1.
 LO BNDSET    E0099               1.
 LO BNDSET    E0100               1.
 LO BNDSET    E0101               1.
 LO BNDSET    E0102               1.
 LO BNDSET    E0103               1.
 LO BNDSET    E0104               1.
 LO BNDSET    E0105               1.
 LO BNDSET    E0106               1.
 LO BNDSET    E0107               1.
 LO BNDSET    E0108               1.
 LO BNDSET    E0109               1.
 LO BNDSET    E0110               1.
 LO BNDSET    E0111               1.
 LO BNDSET    E0112               1.
 LO BNDSET    E0113               1.
 LO BNDSET    E0114               1.
 LO BNDSET    E0115               1.
 LO BNDSET    E0116               1.
 LO BNDSET    E0117               1.
 LO BNDSET    E0118               1.
 LO BNDSET    E0119               1.
 LO BNDSET    E0120               1.
 LO BNDSET    E0121               1.
 LO BNDSET    E0122               1.
 LO BNDSET    E0123               1.
 LO BNDSET    E0124               1.
 LO BNDSET    E0125               1.
 LO BNDSET    E0126               1.
 LO BNDSET    E0127               1.
 LO BNDSET    E0128               1.
 LO BNDSET    E0129               1.
 LO BNDSET    E0130               1.
 LO BNDSET    E0131               1.
 LO BNDSET    E0132               1.
 LO BNDSET    E0133               1.
 LO BNDSET    E0134               1.
 LO BNDSET    E0135               1.
 LO BNDSET    E0136               1.
 LO BNDSET    E0137               1.
 LO BNDSET    E0138               1.
 LO BNDSET    E0139               1.
 LO BNDSET    E0140               1.
 LO BNDSET    E0141               1.
 LO BNDSET    E0142               1.
 LO BNDSET    E0143               1.
 LO BNDSET    E0144               1.
 LO BNDSET    E0145               1.
 LO BNDSET    E0146               1.
 LO BNDSET    E0147               1.
 LO BNDSET    E0148               1.
 LO BNDSET    E0149               1.
 LO BNDSET    E0150               1.
 LO BNDSET    E0151               1.
 LO BNDSET    E0152               1.
 LO BNDSET    E0153               1.
 LO BNDSET    E0154               1.
 LO BNDSET    E0155               1.
 LO BNDSET    E0156               1.
 LO BNDSET    E0157               1.
 LO BNDSET    E0158               1.
 LO BNDSET    E0159               1.
 LO BNDSET    E0160               1.
 LO BNDSET    E0161               1.
 LO BNDSET    E0162               1.
 LO BNDSET    E0163               1.
 LO BNDSET    E0164               1.
 LO BNDSET    E0165               1.
 LO BNDSET    E0166               1.
 LO BNDSET    E0167               1.
 LO BNDSET    E0168               1.
 LO BNDSET    E0169               1.
 LO BNDSET    E0170               1.
 LO BNDSET    E0171               1.
 LO BNDSET    E0172               1.
 LO BNDSET    E0173               1.
 LO BNDSET    E0174               1.
 LO BNDSET    E0175               1.
 LO BNDSET    E0176               1.
 LO BNDSET    E0177               1.
 LO BNDSET    E0178               1.
 LO BNDSET    E0179               1.
 LO BNDSET    E0180               1.
 LO BNDSET    E0181               1.
 LO BNDSET    E0182               1.
 LO BNDSET    E0183               1.
 LO BNDSET    E0184               1.
 LO BNDSET    E0185               1.
 LO BNDSET    E0186               1.
 LO BNDSET    E0187               1.
 LO BNDSET    E0188               1.
 LO BNDSET    E0189               1.
 LO BNDSET    E0190               1.
 LO BNDSET    E0191               1.
 LO BNDSET    E0192               1.
 LO BNDSET    E0193               1.
 LO BNDSET    E0194               1.
 LO BNDSET    E0195               1.
 LO BNDSET    E0196               1.
 LO BNDSET    E0197               1.
 LO BNDSET    E0198               1.
 LO BNDSET    E0199               1.
 LO BNDSET    E0200               1.
 LO BNDSET    E0201               1.
 LO BNDSET    E0202               1.
 LO BNDSET    E0203               1.
 LO BNDSET    E0204               1.
 LO BNDSET    E0205               1.
 LO BNDSET    E0206               1.
 LO BNDSET    E0207               1.
 LO BNDSET    E0208               1.
 LO BNDSET    E0209               1.
 LO BNDSET    E0210               1.
 LO BNDSET    E0211               1.
 LO BNDSET    E0212               1.
 LO BNDSET    E0213               1.
 LO BNDSET    E0214               1.
 LO BNDSET    E0215               1.
 LO BNDSET    E0216               1.
 LO BNDSET    E0217               1.
 LO BNDSET    E0218               1.
 LO BNDSET    E0219               1.
 LO BNDSET    E0220               1.
 LO BNDSET    E0221               1.
 LO BNDSET    E0222               1.
 LO BNDSET    E0223               1.
 LO BNDSET    E0224               1.
 LO BNDSET    E0225               1.
 LO BNDSET    E0226               1.
 LO BNDSET    E0227               1.
 LO BNDSET    E0228               1.
 LO BNDSET    E0229               1.
 LO BNDSET    E0230               1.
 LO BNDSET    E0231               1.
 LO BNDSET    E0232               1.
 LO BNDSET    E0233               1.
 LO BNDSET    E0234               1.
 LO BNDSET    E0235               1.
 LO BNDSET    E0236               1.
 LO BNDSET    E0237               1.
 LO BNDSET    E0238               1.
 LO BNDSET    E0239               1.
 LO BNDSET    E0240               1.
 LO BNDSET    E0241               1.
 LO BNDSET    E0242               1.
 LO BNDSET    E0243               1.
 LO BNDSET    E0244               1.
 LO BNDSET    E0245               1.
 LO BNDSET    E0246               1.
 LO BNDSET    E0247               1.
 LO BNDSET    E0248               1.
 LO BNDSET    E0249               1.
 LO BNDSET    E0250               1.
 LO BNDSET    E0251               1.
 LO BNDSET    E0252               1.
 LO BNDSET    E0253               1.
 LO BNDSET    E0254               1.
 LO BNDSET    E0255               1.
 LO BNDSET    E0256               1.
 LO BNDSET    E0257               1.
 LO BNDSET    E0258               1.
 LO BNDSET    E0259               1.
 LO BNDSET    E0260               1.
ENDATA
